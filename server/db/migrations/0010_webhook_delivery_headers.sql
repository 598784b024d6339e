-- Request and response detail of a delivery's latest attempt (issue 12 item 5: the delivery log shows headers).
-- Both are JSON objects of header name to value, written with the attempt's outcome (null until the first attempt):
-- `request_headers` exactly as sent, signature included (the secret itself is never sent, so never stored);
-- `response_headers` as the receiver answered, cut by the sender to 4 KB of JSON so a chatty receiver cannot grow
-- the table.
ALTER TABLE webhook_deliveries ADD COLUMN request_headers TEXT
  CHECK (request_headers IS NULL OR json_valid(request_headers));
ALTER TABLE webhook_deliveries ADD COLUMN response_headers TEXT
  CHECK (response_headers IS NULL OR (json_valid(response_headers) AND length(response_headers) <= 4096));
