# Just enough of the worker protocol (docs/TARGETS.md, "The protocol") for the targets
# of this folder: each misbehaves in one way, as a user's target might, and the tests
# (MisbehavingTargetTests) hold the controller to ending every one of them cleanly.
# Sourced: `. "$(dirname "$0")/protocol.sh"`.

# The ready line: the protocol's version (WorkerProtocolVersion.current) and the worker's pid.
ready() { printf '{"event":"ready","pid":%d,"protocol":2}\n' $$; }

# What the target declares, as JSON; $1 is fields to add (",\"variants\":[...]").
declaration() { printf '{"actions":["app.list"],"files":{"store":"app.sqlite"},"probes":[]%s}' "${1:-}"; }

# Reads one request into REQ_ID and REQ_OP; ends the script at the end of input.
next_request() {
  IFS= read -r line || exit 0
  REQ_ID=$(sed -n 's/.*"id":\([0-9]*\).*/\1/p' <<<"$line")
  REQ_OP=$(sed -n 's/.*"op":"\([a-z-]*\)".*/\1/p' <<<"$line")
}

reply_ok() { printf '{"id":%s,"ok":true}\n' "$REQ_ID"; }

# Answers `describe` with $DECLARATION (default: declaration), anything else with ok;
# exits 0 after stop.
serve() {
  while next_request; do
    if [ "$REQ_OP" = describe ]; then
      printf '{"declaration":%s,"id":%s,"ok":true}\n' "${DECLARATION:-$(declaration)}" "$REQ_ID"
    else
      reply_ok
    fi
    if [ "$REQ_OP" = stop ]; then exit 0; fi
  done
}

# True when Chaos only asks what the target declares (a worker on a `describe` folder).
describing() { case "$*" in *-describe-*) return 0 ;; esac; return 1; }
