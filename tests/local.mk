# Integration tests (TAP shell) for kjail, and their C helpers.
