"""Uploads read no further than the largest file a form takes (issue 26 #11).

Django's default handlers keep a small upload in memory and write a larger one to a temporary file before any
view can look at its size: a 200 MB post wrote 191 MB to disk to be refused for being over 1 MiB. Here the
request is refused before its body is read when it says it is too long (:class:`UploadLimitMiddleware`, 413), and
a body that says nothing or lies stops being read at the limit (:class:`LimitedUploadHandler`, in memory only):
the file is left out and ``request.upload_refused`` says why, for the form to show.
"""

from __future__ import annotations

from io import BytesIO

from django.conf import settings
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.shortcuts import render

# Room for the other fields and the multipart boundaries of a form that carries one file.
FORM_OVERHEAD = 64 * 1024


def too_large_message() -> str:
    most = f"{settings.UPLOAD_MOST_BYTES / 2**20:g} MiB"
    return f"The file is larger than {most}; a file sent here is at most {most}."


class LimitedUploadHandler(FileUploadHandler):
    """Each file in memory, up to ``UPLOAD_MOST_BYTES``; past that the upload stops and nothing more is read."""

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.file = BytesIO()

    def receive_data_chunk(self, raw_data, start):
        if start + len(raw_data) > settings.UPLOAD_MOST_BYTES:
            self.request.upload_refused = too_large_message()
            raise StopUpload(connection_reset=True)  # the rest of the body is never read
        self.file.write(raw_data)

    def file_complete(self, file_size):
        self.file.seek(0)
        return InMemoryUploadedFile(
            file=self.file,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )


class UploadLimitMiddleware:
    """413 for a form post whose Content-Length is past what any form takes, before its body is read."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.content_type == "multipart/form-data":
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > settings.UPLOAD_MOST_BYTES + FORM_OVERHEAD:
                return render(request, "400.html", {"message": too_large_message()}, status=413)
        return self.get_response(request)
