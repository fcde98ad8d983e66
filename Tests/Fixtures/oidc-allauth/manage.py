#!/usr/bin/env python
"""Django entry point of the third OpenID Connect fixture (django-allauth's identity provider)."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "idp_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
