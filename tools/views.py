"""The home page: composed from every app, so it lives on the top floor."""

from django.shortcuts import render

from tools.todo import home_todos


def home(request):
    """The front page; logged in, the person's to-do list across their campaigns and gangs."""
    todos = home_todos(request.user) if request.user.is_authenticated else None
    return render(request, "core/home.html", {"todos": todos})
