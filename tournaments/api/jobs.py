# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""A background job's state (tournaments/jobs/), for the job page's poll and for clients
that started long work: GET /api/jobs/<id>/."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.views import ERRORS
from tournaments.jobs import visible_jobs
from tournaments.jobs.heartbeat import jobs_mark_interrupted
from tournaments.models import Job


class JobSerializer(serializers.ModelSerializer):
    stage_text = serializers.CharField(
        read_only=True, help_text="the stage in the request's language (stage: its code)"
    )

    class Meta:
        model = Job
        fields = ["id", "kind", "status", "stage", "stage_text", "done", "total", "result", "error",
                  "tournament", "created_at", "started_at", "finished_at"]  # fmt: skip
        read_only_fields = fields


class JobStatus(ServiceErrorsMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JobSerializer, 403: ERRORS[403], 404: ERRORS[404]},
        operation_id="jobs_retrieve",
    )
    def get(self, request: Any, pk: int) -> Response:
        """A job's status, progress (``done`` of ``total`` in ``stage``) and, once
        finished, its result or error. Seen by its creator, the directors of its
        tournament and superusers. A running job whose worker has given no sign of life
        for JOBS_STALE_SECONDS (60) is failed, "interrupted": start it again."""
        jobs_mark_interrupted()
        job = get_object_or_404(visible_jobs(request.user).defer("data"), pk=pk)
        return Response(JobSerializer(job).data)
