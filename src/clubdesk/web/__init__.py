"""The third face beside ``ui/`` and ``cli/``: a small web app served from the desk PC on the
hall's network. ``app.create_app`` builds the ASGI app (Starlette, Jinja2 pages, plain HTML forms),
``server.TableServer`` runs it on uvicorn in a background thread. It calls the same services as the window
and the CLI; its static files ship in the package and nothing is fetched from outside.
"""
