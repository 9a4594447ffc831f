"""The REST API (Django REST Framework): thin views over services and selectors."""
