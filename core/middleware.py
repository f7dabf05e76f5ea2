"""Site-wide middleware: htmx messages, and refusing NUL characters before any view.

Show Django messages after htmx requests too.

A full page renders its messages in ``base.html``. An htmx request swaps only a fragment, so
messages queued during it would wait for the next full page; this appends them as an
out-of-band swap of the ``#messages`` region instead.
"""

from django.contrib.messages import get_messages
from django.core.exceptions import SuspiciousOperation
from django.http import UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.template.loader import render_to_string


class HtmxMessagesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or request.htmx.boosted:
            return response
        if response.status_code in (301, 302, 303, 307, 308) or "HX-Redirect" in response.headers:
            return response
        if not response.get("Content-Type", "").startswith("text/html") or response.streaming:
            return response
        messages = list(get_messages(request))
        if messages:
            html = render_to_string("core/_messages.html", {"messages": messages, "oob": True}, request=request)
            response.content += html.encode(response.charset)
        return response


class RefuseNulMiddleware:
    """Answer 400 to any request with a NUL character in its path, query or form fields.

    PostgreSQL refuses NUL in text, so one reaching a query or a save is a server error there
    (SQLite stores it silently). No field of the site has a use for it; refusing it here, before any
    view, covers every URL and every text field in one place. Uploaded files are left to their
    parsers (the gang import refuses NUL in its JSON strings itself).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            return render(
                request,
                "400.html",
                {"message": "The request contained a NUL character (\\0), which no page or field accepts."},
                status=400,
            )
        return self.get_response(request)


def _has_nul(request) -> bool:
    if "\x00" in request.path or _fields_have_nul(request.GET):
        return True
    if request.method != "POST":
        return False
    try:
        return _fields_have_nul(request.POST)
    except (SuspiciousOperation, MultiPartParserError, UnreadablePostError):
        return False  # an unreadable body is the view's parser's to refuse, with its own 400


def _fields_have_nul(fields) -> bool:
    return any("\x00" in key or any("\x00" in value for value in fields.getlist(key)) for key in fields)
