# Build the single executable, pull the default embedding model, run both in a slim image.
FROM node:22-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# node:22's npm 10 ignores package.json's allowScripts: skip onnxruntime-node's CUDA download explicitly.
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && ./dist/brainbox models pull Xenova/bge-small-en-v1.5 \
    && mkdir -p /models && cp -r data/models/. /models/

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/dist/brainbox /usr/local/bin/brainbox
COPY --from=build /models /models
# The server runs on Bun's own runtime defaults; an operator may still pass engine settings with -e.
ENV BRAINBOX_HOST=0.0.0.0 \
    BRAINBOX_PORT=8080 \
    BRAINBOX_DATA_DIR=/data \
    BRAINBOX_MODELS_DIR=/models \
    BRAINBOX_EMBED_MODEL=Xenova/bge-small-en-v1.5
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["brainbox"]
CMD ["serve"]
