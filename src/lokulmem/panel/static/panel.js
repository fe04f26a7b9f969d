// lokulmem panel: actions on memories, bulk actions, import, live updates.
// Every write sends the per-run token in the X-Lokulmem-Token header.
"use strict";
const TOKEN = document.querySelector('meta[name="lokulmem-token"]').content;

function say(text, isError) {
  const box = document.getElementById("message");
  if (!box) return;
  box.textContent = text;
  box.classList.toggle("error", Boolean(isError));
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: {"X-Lokulmem-Token": TOKEN, "Content-Type": "application/json"},
    body: typeof body === "string" ? body : JSON.stringify(body || {}),
  });
  const data = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data.result;
}

async function refreshList() {
  const list = document.getElementById("memories");
  if (!list) return;
  const html = await (await fetch(location.href)).text();
  const page = new DOMParser().parseFromString(html, "text/html");
  list.replaceWith(page.getElementById("memories"));
  document.getElementById("count").textContent = page.getElementById("count").textContent;
}

async function act(item, action) {
  const id = item.dataset.id;
  try {
    if (action === "edit") {
      const current = item.querySelector(".content").textContent;
      const content = prompt("Correct this memory:", current);
      if (content === null || content.trim() === "" || content === current) return;
      await post(`/api/memories/${id}/edit`, {content});
      say("Saved the correction.");
    } else {
      if (action === "delete" && !confirm("Delete this memory for good?")) return;
      await post(`/api/memories/${id}/${action}`);
      say(`Done: ${action}.`);
    }
    await refreshList();
  } catch (err) {
    say(err.message, true);
  }
}

async function bulk(action) {
  const ids = [...document.querySelectorAll(".memory .select:checked")].map((box) => box.closest(".memory").dataset.id);
  if (ids.length === 0) { say("Select memories first.", true); return; }
  if (action === "delete" && !confirm(`Delete ${ids.length} memories for good?`)) return;
  try {
    const count = await post("/api/bulk", {action, ids});
    say(`Done: ${action} ${count} of ${ids.length}.`);
    await refreshList();
  } catch (err) {
    say(err.message, true);
  }
}

async function importFile(input) {
  const file = input.files[0];
  if (!file) return;
  try {
    const result = await post("/api/import", await file.text());
    say(`Imported ${result.imported}, skipped ${result.skipped}, conflicts ${result.conflicts}.`);
    await refreshList();
  } catch (err) {
    say(`Import refused, nothing changed: ${err.message}`, true);
  }
  input.value = "";
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-act]");
  if (button) { act(button.closest(".memory"), button.dataset.act); return; }
  const bulkButton = event.target.closest("button[data-bulk]");
  if (bulkButton) bulk(bulkButton.dataset.bulk);
});

const importInput = document.getElementById("import");
if (importInput) importInput.addEventListener("change", () => importFile(importInput));

const editForm = document.getElementById("edit-form");
if (editForm) {
  editForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = editForm.closest(".lineage").dataset.id;
    try {
      const memory = await post(`/api/memories/${id}/edit`, {content: editForm.content.value});
      document.getElementById("content").textContent = memory.content;
      say("Saved the correction.");
    } catch (err) {
      say(err.message, true);
    }
  });
}

// Live updates: this panel's own writes and other processes' commits.
const live = document.getElementById("live");
const events = new EventSource("/api/events");
let pending = null;
events.addEventListener("change", (event) => {
  const change = JSON.parse(event.data);
  live.hidden = false;
  live.textContent = change.kind === "external" ? "store changed elsewhere" : `memory ${change.kind}`;
  clearTimeout(pending);
  pending = setTimeout(() => { refreshList().catch(() => {}); }, 300);
});
