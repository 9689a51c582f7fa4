FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY games ./games
COPY players ./players
COPY ai ./ai
COPY locale ./locale
COPY manage.py ./
RUN pip install --no-cache-dir -e .
