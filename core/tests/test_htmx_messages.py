import pytest
from django.contrib import messages
from django.http import HttpResponse
from django.test import RequestFactory

from core.middleware import HtmxMessagesMiddleware


def _request(htmx: bool):
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.signed_cookies import SessionStore
    from django_htmx.middleware import HtmxDetails

    request = RequestFactory().post("/", **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    request.htmx = HtmxDetails(request)
    messages.success(request, "Hired Kal Jerico.")
    return request


@pytest.mark.parametrize("htmx", [True, False])
def test_messages_ride_along_with_htmx_fragments_only(htmx):
    middleware = HtmxMessagesMiddleware(lambda request: HttpResponse("<tr>fighter</tr>"))
    response = middleware(_request(htmx))
    assert (b'hx-swap-oob="true"' in response.content) is htmx
    assert (b"Hired Kal Jerico." in response.content) is htmx
