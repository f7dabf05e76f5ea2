"""One page of a long list (a gang's history, a campaign's log, the post-battle list), so a page's size does
not grow with a gang's or a campaign's age.

One query a page however long the list: the page's rows and one more, which says whether there is an older
page, so no count of the whole list on every view. The page number is read like every other number
(:func:`rulebook.numbers.whole_number`) and a page that is not there gives the nearest one: not a number or
below 1 the first page; past the end (a link kept from before an undo, a typo) the last page, for which
the list is counted, only then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from django.core.cache import cache

from rulebook.numbers import whole_number

# Past any list's end, and small enough that its offset stays a 64-bit number in the database.
LAST_PAGE_ASKED = 10**9

#: A cached page lives a day at most; a key whose version moved is left to expire.
CACHED_SECONDS = 24 * 60 * 60


@dataclass
class ListPage:
    """The rows of one page, newest first, with the query strings of its neighbours for ``_pager.html``
    (the request's other parameters kept, so a filtered list stays filtered; "" when there is none).

    ``read_rows`` gives the rows when they are first asked for: a page whose rows are drawn into a cached fragment
    does not read them (nor unpickle them from the cache) while the fragment is there."""

    read_rows: Callable[[], list]
    number: int
    newer_query: str
    older_query: str

    @cached_property
    def rows(self) -> list:
        return self.read_rows()

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def page_of(queryset, request, per_page: int, param: str = "page", *, cached_as: str = "") -> ListPage:
    """The page of ``queryset`` (ordered newest first) asked for by ``request.GET[param]``, or the nearest.

    ``cached_as``: a cache key that moves with every change to the list (a version, as campaigns.cache's): the
    page's number and whether an older page follows are kept under it, and the page's rows beside them (read only
    when asked for), so a page read again costs no query."""
    asked = number = min(max(whole_number(request.GET.get(param)) or 1, 1), LAST_PAGE_ASKED)
    key = f"{cached_as}:{param}:{per_page}:{asked}:page"
    found = cache.get(key) if cached_as else None
    if found is not None:
        number, older = found
        rows = None
    else:
        rows = _rows(queryset, number, per_page)
        if not rows and number > 1:
            number = max(1, -(-queryset.count() // per_page))
            rows = _rows(queryset, number, per_page)
        older = len(rows) > per_page
        rows = rows[:per_page]
        if cached_as and number == asked:  # a page that is there: no key for every number a client makes up
            cache.set_many({key: (number, older), f"{key}:rows": rows}, CACHED_SECONDS)

    def read_rows() -> list:
        if rows is not None:
            return rows
        found = cache.get(f"{key}:rows")  # gone alone (evicted): read again
        return found if found is not None else _rows(queryset, number, per_page)[:per_page]

    return ListPage(
        read_rows=read_rows,
        number=number,
        newer_query=_query(request, param, number - 1) if number > 1 else "",
        older_query=_query(request, param, number + 1) if older else "",
    )


def _rows(queryset, number: int, per_page: int) -> list:
    start = (number - 1) * per_page
    return list(queryset[start : start + per_page + 1])


def _query(request, param: str, number: int) -> str:
    query = request.GET.copy()
    query[param] = str(number)
    return query.urlencode()
