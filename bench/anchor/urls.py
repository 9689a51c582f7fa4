from django.urls import path

from anchor import views

urlpatterns = [
    path("plain/", views.plain),
    path("move/<uuid:game_id>/", views.Move.as_view()),
]
