"""The private implementation behind ``LokulMem`` and ``Manager`` (not a public API).

* :mod:`.engine`: the :class:`~.engine.Engine` (lock, caches, index, scheduler);
* :mod:`.unit`: :class:`~.unit.Changes`, the one unit of work every writer commits;
* :mod:`.learning` and :mod:`.recall`: ``learn()`` and ``augment()`` as short
  orchestrations of I/O and pure stages;
* pure policies: :mod:`.sentence` (the sentence plan), :mod:`.facts` (closing a
  contradicted fact, building records), and :mod:`lokulmem.retrieval.stages`;
* :mod:`.state` (session state, record cache), :mod:`.args` (argument checks),
  :mod:`.stats`.

This package imports nothing on purpose: modules that only need
:class:`~.unit.Changes` (maintenance) import it without pulling in the engine.
"""
