"""The ClubDesk user guide (issue 30): MyST Markdown pages, English source, translated through gettext.

Build it with ``scripts/dev.sh guide`` (all four languages, warnings as errors) or
``python scripts/guide.py build --lang es --out build/guide/es``: that script stages this folder with the
language's screenshots in ``_shots/`` (made by ``scripts/dev.sh screenshots``) before Sphinx runs.
"""

project = "ClubDesk"
author = "ClubDesk"
copyright = "ClubDesk contributors"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_templates", "locale", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 2

language = "en"
locale_dirs = ["locale/"]
gettext_compact = True  # one catalog per page: first-night.pot, gaple.pot, …
gettext_uuid = False
gettext_location = False  # no file:line comments: the catalogs do not change when a paragraph moves
gettext_additional_targets: list[str] = []

html_theme = "alabaster"
html_title = "ClubDesk"
html_static_path: list[str] = []
html_show_sourcelink = False
html_copy_source = False
html_search = True
html_theme_options = {"nosidebar": False, "show_relbars": True}
html_show_sphinx = False  # no English "Powered by" line under a translated page, no link out
templates_path = ["_templates"]  # the sidebar's search box with its words translated (locale/*/sphinx.po)


def _full_size_links(app, doctree, docname):  # type: ignore[no-untyped-def]
    """Every picture opens at full size: each image becomes a link to its own file in ``_images/`` (the
    page shows a screenshot scaled to its column, 5-6 px text; the browser shows the file 1:1)."""
    import posixpath

    from docutils import nodes
    from sphinx.locale import get_translation
    from sphinx.util.osutil import relative_uri

    if app.builder.format != "html":
        return
    words = get_translation("sphinx")  # the builder's catalog, with this guide's own sphinx.po first
    folder = relative_uri(app.builder.get_target_uri(docname), "_images")
    for image in list(doctree.findall(nodes.image)):
        uri = image["uri"]
        if isinstance(image.parent, nodes.reference) or uri not in app.env.images:
            continue
        link = nodes.reference("", "", internal=True, classes=["full-size"])
        link["refuri"] = posixpath.join(folder, app.env.images[uri][1])
        link["reftitle"] = words("Open the picture at full size")
        image.replace_self(link)
        link.append(image)


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("doctree-resolved", _full_size_links)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
