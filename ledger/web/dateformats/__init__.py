"""The site's own date formats (settings.FORMAT_MODULE_PATH), over Django's for a language."""
