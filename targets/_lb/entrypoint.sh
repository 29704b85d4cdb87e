#!/bin/bash
# nginx in front of a stack's replicas: one upstream server per address Docker's DNS gives for the
# compose service $UPSTREAM (every container of it). Starts once $REPLICAS addresses resolve, so
# none is left out of the rotation, then re-resolves every 2 s and reloads nginx when the set
# changes (replicas recreated with new settings get new addresses; nginx would not notice).
set -euo pipefail
: "${UPSTREAM:=app}"
: "${UPSTREAM_PORT:=8080}"
: "${REPLICAS:=1}"
: "${LB_WAIT_SECONDS:=60}"

resolve() { getent ahostsv4 "$UPSTREAM" | awk '{print $1}' | sort -u | tr '\n' ' ' || true; }

write_conf() {
  local servers=""
  for a in $1; do servers+="    server $a:$UPSTREAM_PORT;"$'\n'; done
  cat >/etc/nginx/nginx.conf <<CONF
worker_processes auto;
pid /run/nginx.pid;
error_log stderr warn;
events { worker_connections 8192; }
http {
  access_log off;
  keepalive_timeout 30s;
  keepalive_requests 1000000;
  client_max_body_size 11m;
  upstream replicas {
$servers    keepalive 256;
    keepalive_requests 1000000;
  }
  server {
    listen 8080 backlog=4096;
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_request_buffering off;
      proxy_read_timeout 120s;
      # Which replica answered: the tests count each instance's share from it.
      add_header x-upstream \$upstream_addr always;
    }
  }
}
CONF
}

current=""
for _ in $(seq 1 $((LB_WAIT_SECONDS * 4))); do
  current="$(resolve)"
  [ "$(wc -w <<<"$current")" -ge "$REPLICAS" ] && break
  sleep 0.25
done
if [ "$(wc -w <<<"$current")" -lt "$REPLICAS" ]; then
  echo "[lb] only $(wc -w <<<"$current") of $REPLICAS replicas of $UPSTREAM resolve after ${LB_WAIT_SECONDS} s: ${current:-none}" >&2
  exit 1
fi
write_conf "$current"
echo "[lb] balancing over $(wc -w <<<"$current") replicas of $UPSTREAM: $current"
nginx -g 'daemon off;' &
nginx_pid=$!
trap 'kill -QUIT "$nginx_pid" 2>/dev/null; wait "$nginx_pid"; exit 0' TERM INT QUIT
while kill -0 "$nginx_pid" 2>/dev/null; do
  sleep 2 &
  wait $! || true
  next="$(resolve)"
  if [ -n "$next" ] && [ "$next" != "$current" ]; then
    current="$next"
    write_conf "$current"
    nginx -s reload
    echo "[lb] now balancing over $(wc -w <<<"$current") replicas of $UPSTREAM: $current"
  fi
done
wait "$nginx_pid"
