"""The WebSocket routes (config/asgi.py)."""

from django.urls import path

from tournaments.online.consumer import RoomConsumer

websocket_urlpatterns = [path("ws/rooms/<int:room_id>/", RoomConsumer.as_asgi())]  # type: ignore[arg-type]
