-- A refused callback's attempt used to record what the host resolved to ("resolves to 10.0.0.5
-- (private)"), and the owner's delivery log showed it. New attempts say only that the address is
-- not public (the address goes to the server log); the ones already recorded are reworded alike.
UPDATE webhook_attempts
SET error = CASE
  WHEN substring(error FROM '^the callback host (\S+) resolves to ') = substring(error FROM '^the callback host \S+ resolves to (\S+) \(')
    THEN regexp_replace(error, '^the callback host (\S+) resolves to \S+ \([a-z-]+\), which callbacks may not reach$', 'the callback host \1 is not a public address, which callbacks may not reach')
  ELSE regexp_replace(error, '^the callback host (\S+) resolves to \S+ \([a-z-]+\), which callbacks may not reach$', 'the callback host \1 resolves to an address that is not public, which callbacks may not reach')
END
WHERE error ~ '^the callback host \S+ resolves to \S+ \([a-z-]+\), which callbacks may not reach$';
