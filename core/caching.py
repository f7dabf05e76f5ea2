"""The shared cache as an aid, never a dependency (issue 26: "a cache outage is not an outage").

Everything the site caches (rendered roster fragments, rule summaries, who arbitrates) is also in the database,
so a cache that does not answer is treated as a cache that holds nothing: a read is a miss, a write is dropped,
and the outage is logged. Django's own Redis and Memcached backends raise instead, which made every roster page a
500 while Redis was down. The backends here add that guard to each cache operation (``CACHE_URL`` selects them,
necromunda_site.environment); :func:`cache_health` says whether the cache answers, for ``/healthz``.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.memcached import PyMemcacheCache
from django.core.cache.backends.redis import RedisCache
from django.db.models.signals import post_delete, post_save

logger = logging.getLogger(__name__)

# Seconds between two log lines about one outage: a page makes many cache calls.
LOG_EVERY = 60.0


class _Guarded:
    """Each operation of the backend it is mixed into, answering "nothing there" when the server is down."""

    unreachable: tuple[type[BaseException], ...] = (OSError,)
    _last_logged = 0.0

    def _guard(self, call, missed=None):
        try:
            return call()
        except self.unreachable as error:
            now = time.monotonic()
            if now - _Guarded._last_logged >= LOG_EVERY:
                _Guarded._last_logged = now
                logger.warning(
                    "Cache unreachable (%s: %s); pages answer from the database", type(error).__name__, error
                )
            return missed

    def get(self, key, default=None, version=None):
        return self._guard(lambda: super(_Guarded, self).get(key, default, version), default)

    def get_many(self, keys, version=None):
        return self._guard(lambda: super(_Guarded, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self._guard(lambda: super(_Guarded, self).has_key(key, version), False)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(lambda: super(_Guarded, self).add(key, value, timeout, version), False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(lambda: super(_Guarded, self).set(key, value, timeout, version))

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(lambda: super(_Guarded, self).set_many(data, timeout, version), list(data))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(lambda: super(_Guarded, self).touch(key, timeout, version), False)

    def delete(self, key, version=None):
        return self._guard(lambda: super(_Guarded, self).delete(key, version), False)

    def delete_many(self, keys, version=None):
        return self._guard(lambda: super(_Guarded, self).delete_many(keys, version))

    def clear(self):
        return self._guard(lambda: super(_Guarded, self).clear())

    def probe(self) -> None:
        """Store, read back and remove a value, raising whatever the server raises (no guard)."""
        key = f"healthz:{time.monotonic_ns()}"
        super().set(key, "1", 10)
        answered = super().get(key)
        super().delete(key)
        if answered != "1":
            raise LookupError("a value stored was not returned")


def _redis_errors() -> tuple[type[BaseException], ...]:
    from redis.exceptions import RedisError

    return (RedisError, OSError)


def _memcached_errors() -> tuple[type[BaseException], ...]:
    from pymemcache.exceptions import MemcacheError

    return (MemcacheError, OSError)


class GuardedRedisCache(_Guarded, RedisCache):
    unreachable = _redis_errors()


class GuardedPyMemcacheCache(_Guarded, PyMemcacheCache):
    unreachable = _memcached_errors()


def cache_health() -> str | None:
    """None when the default cache answers; otherwise why not, in a few words. A cache without a server
    (local memory) always answers."""
    backend = caches["default"]
    if not isinstance(backend, _Guarded):
        return None
    try:
        backend.probe()
    except Exception as error:  # noqa: BLE001 (any failure is the reason /healthz gives)
        return f"{type(error).__name__}: {error}"
    return None


def on_row_change(model, field: str | None, bump, uid: str) -> None:
    """Call ``bump`` with what ``model``'s ``field`` names (``None``: the row's own key) whenever a row is saved or
    deleted, except while fixtures load: how a cached page's version follows rows that another app keeps."""
    attname = model._meta.get_field(field).attname if field else "pk"

    def after(sender, instance, **kwargs):
        if not kwargs.get("raw"):
            bump(getattr(instance, attname))

    post_save.connect(after, sender=model, weak=False, dispatch_uid=uid)
    post_delete.connect(after, sender=model, weak=False, dispatch_uid=f"{uid}-delete")


class KeepsVersion:
    """Mixed into a model whose ``version`` field only an ``F()`` update moves (its app's bump, in the same
    transaction as the change): saving a copy loaded earlier writes every other field and leaves ``version`` as the
    database holds it, so it never puts back an older number under which an older page may be cached."""

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name != "version"
            ]
        super().save(*args, **kwargs)
