"""One page of a long list (a gang's history, a campaign's log, the post-battle list), so a page's size does
not grow with a gang's or a campaign's age.

The page number is read like every other number (:func:`rulebook.numbers.whole_number`) and clamped to the
nearest page there is: a link kept from when the list was shorter, a typo or ``?page=0`` shows a page, never
an error. Two queries whatever the list's length: its count and the page's rows.
"""

from __future__ import annotations

from django.core.paginator import Page, Paginator

from rulebook.numbers import whole_number


def page_of(items, request, per_page: int, param: str = "page") -> Page:
    """The page of ``items`` (newest first) asked for by ``request.GET[param]``, or the nearest one, with the
    query strings of its neighbours (``newer_query``, ``older_query``: the request's other parameters kept,
    so a filtered list stays filtered) for ``_pager.html``."""
    paginator = Paginator(items, per_page)
    number = whole_number(request.GET.get(param)) or 1
    page = paginator.page(min(max(number, 1), paginator.num_pages))
    page.newer_query = _query(request, param, page.previous_page_number()) if page.has_previous() else ""
    page.older_query = _query(request, param, page.next_page_number()) if page.has_next() else ""
    return page


def _query(request, param: str, number: int) -> str:
    query = request.GET.copy()
    query[param] = str(number)
    return query.urlencode()
