-- wrk report: one line of figures, and the errors that make `make loadtest` fail.
-- With FORM_BODY and COOKIE in the environment, every request is that form post.
local body = os.getenv("FORM_BODY")
if body then
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
  wrk.headers["Cookie"] = os.getenv("COOKIE")
end

done = function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local errors = summary.errors
  io.write(string.format(
    "RESULT requests=%d rps=%.0f p50_ms=%.2f p99_ms=%.2f status_errors=%d socket_errors=%d\n",
    summary.requests, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
