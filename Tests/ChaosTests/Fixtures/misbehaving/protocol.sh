# Just enough of the worker protocol (docs/TARGETS.md, "The protocol") for the targets
# of this folder: each misbehaves in one way, as a user's target might, and the tests
# (MisbehavingTargetTests) hold the controller to ending every one of them cleanly.
# Sourced: `. "$(dirname "$0")/protocol.sh"`.

# The ready line; $1 is JSON fields to add (",\"variants\":[...]").
ready() {
  printf '{"actions":["app.list"],"event":"ready","files":{"store":"app.sqlite"},"pid":%d,"probes":[]%s}\n' $$ "${1:-}"
}

# Reads one request into REQ_ID and REQ_OP; ends the script at the end of input.
next_request() {
  IFS= read -r line || exit 0
  REQ_ID=$(sed -n 's/.*"id":\([0-9]*\).*/\1/p' <<<"$line")
  REQ_OP=$(sed -n 's/.*"op":"\([a-z-]*\)".*/\1/p' <<<"$line")
}

reply_ok() { printf '{"id":%s,"ok":true}\n' "$REQ_ID"; }

# Answers every request with ok; exits 0 after stop.
serve() {
  while next_request; do
    reply_ok
    if [ "$REQ_OP" = stop ]; then exit 0; fi
  done
}

# True when Chaos only asks what the target declares (a worker on a `describe` folder).
describing() { case "$*" in *-describe-*) return 0 ;; esac; return 1; }
