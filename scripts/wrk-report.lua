-- wrk report: one line of figures, and the errors that make `make loadtest` fail.
-- With FORM_BODY in the environment, every request is that form post (its cookies come with
-- -H "Cookie: …", as for the pages).
local body = os.getenv("FORM_BODY")
if body then
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
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
