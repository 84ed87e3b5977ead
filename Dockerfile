# The churn command in a container, for the one-shot `churn` service of docker-compose.yml.
FROM swift:6.2-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev zlib1g-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN swift build -c release --product churn && cp .build/release/churn /usr/local/bin/churn

FROM swift:6.2-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 zlib1g ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/churn /usr/local/bin/churn
WORKDIR /work
ENTRYPOINT ["churn"]
