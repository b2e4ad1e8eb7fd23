# Easel in a container: the `easel` CLI as the entry point, `easel-serve` beside it.
#
#   docker build -t easel .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/data" easel export card.rwcard -o card.png
#   docker run --rm --user "$(id -u):$(id -g)" -p 8080:8080 -v "$PWD:/data" -v "$PWD/token:/token:ro" easel \
#     serve /data --host 0.0.0.0 --token-file /token
#
# Two stages: the Swift toolchain builds easel and easel-serve (release, the Swift runtime
# linked statically); slim Debian 12 then gets the two programs and only what they need at
# run time: deploy/runtime-packages.txt, the list `make deps` installs and `easel doctor`
# checks (DeploymentFilesTests keeps the three in step, and checks the paths copied below).

FROM swift:6.3-bookworm AS build
# The toolchain image has no make; `make deps` then installs the headers, `make release` builds.
RUN apt-get update && apt-get install -y --no-install-recommends make && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN make deps && make release && rm -rf /var/lib/apt/lists/*

FROM debian:bookworm-slim
COPY deploy/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
    && sed -e 's/#.*//' /tmp/runtime-packages.txt | xargs apt-get install -y --no-install-recommends \
    && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt
# easel finds easel-serve beside it; easel-serve finds the browser editor's files beside it.
COPY --from=build /src/.build/release/easel /src/.build/release/easel-serve /usr/local/bin/
COPY --from=build /src/.build/release/Easel_EaselServer.resources /usr/local/bin/Easel_EaselServer.resources
# Fails the build when a library or font file does not load.
RUN easel doctor
# Not root: documents are read and written as this user. Easel's state (edit histories,
# locks, the server's trash) is in /state, which any user may make its folder in: run with
# `--user "$(id -u):$(id -g)"` there is no home to keep it in. Mount a volume there to keep
# the histories from one container to the next.
RUN useradd --create-home --uid 10001 easel && mkdir /data && chown easel /data && mkdir -m 1777 /state
ENV XDG_STATE_HOME=/state
USER easel
WORKDIR /data
EXPOSE 8080
ENTRYPOINT ["easel"]
CMD ["--help"]
