"""The GM audit: a table's sheets checked in one pass (everything ``check`` finds, formula drift,
older template versions, duplicates, the party's balance, house rules and approved exceptions),
reported as JSON, HTML and annotated copies of the workbooks."""
