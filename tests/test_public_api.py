import inspect

import lokulmem
from lokulmem import errors


def test_all_is_sorted_and_complete() -> None:
    assert lokulmem.__all__ == sorted(lokulmem.__all__, key=lambda s: (s.startswith("_"), s))
    for name in lokulmem.__all__:
        assert hasattr(lokulmem, name), name
    public = {
        n
        for n, obj in vars(lokulmem).items()
        if not n.startswith("_") and (inspect.isclass(obj) or inspect.isfunction(obj))
    }
    assert public <= set(lokulmem.__all__)


def test_every_error_is_a_lokulmem_error_and_drawn_in_the_docstring() -> None:
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, errors.LokulMemError)
        assert name in (errors.__doc__ or "")
    assert issubclass(errors.SchemaVersionError, errors.StorageError)
    assert issubclass(errors.EmbeddingModelMismatchError, errors.StorageError)
    assert issubclass(errors.ModelIntegrityError, errors.EmbeddingError)
    assert issubclass(errors.ValidationError, TypeError)
    assert issubclass(errors.ConfigError, ValueError)
