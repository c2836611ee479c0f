#!/bin/sh
# make screenshots: pictures of gifview at work for the README, made by gifview itself
# under Xvfb: a GIF playing, the loading spinner (a server that stalls), the failure card.
# gifview-shot saves each window's pixels as PNG (gifview's own libpng writer).
set -eu
cd "$(dirname "$0")/.."
sh .ci/ensure-packages xvfb python3
swift build -c release --product gifview >&2
swift build -c release --product gifview-shot >&2
bin=.build/release/gifview
shooter=.build/release/gifview-shot
out=Resources/screenshots
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'kill $viewer $server $xvfb 2>/dev/null || true; rm -rf "$tmp"' EXIT
viewer="" server="" xvfb=""

mkfifo "$tmp/fd"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$tmp/fd" 2>/dev/null &
xvfb=$!
read -r n <"$tmp/fd"
export DISPLAY=":$n"

# A server that sends the first bytes of the sample and then stalls, and 404s the rest.
cat >"$tmp/server.py" <<'PY'
import http.server, sys, time
data = open(sys.argv[1], "rb").read()
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        if self.path.startswith("/stall/"):
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[:900]); self.wfile.flush()
            time.sleep(60)
        else:
            body = b"<html>not found</html>"
            self.send_response(404, "Not Found")
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
python3 "$tmp/server.py" Resources/sample.gif >"$tmp/port" &
server=$!
while [ ! -s "$tmp/port" ]; do sleep 0.1; done
port=$(cat "$tmp/port")

shoot() { # NAME SECONDS ARGS...: run gifview, wait, save its window as NAME.png
  name=$1 wait=$2
  shift 2
  "$bin" --no-cache "$@" 2>/dev/null &
  viewer=$!
  sleep "$wait"
  "$shooter" --class Gifview --wait 2000 "$out/$name.png"
  kill "$viewer"
  wait "$viewer" 2>/dev/null || true
  echo "$out/$name.png"
}
shoot playing 1.2 --geometry 320x240 Resources/sample.gif
shoot spinner 1.0 "http://127.0.0.1:$port/stall/sample.gif"
shoot failure 1.0 "http://127.0.0.1:$port/missing/sample.gif"
shoot grid 1.5 --grid --tile 140x90 --geometry 480x240 Resources/sample.gif "http://127.0.0.1:$port/stall/sample.gif" \
  "http://127.0.0.1:$port/missing/sample.gif"
