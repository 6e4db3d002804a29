// Preloaded (`node --require`) to run an app on a machine whose clock is off by CLOCK_OFFSET_MS.
const offsetMs = Number(process.env.CLOCK_OFFSET_MS || 0);
const trueNow = Date.now;
Date.now = () => trueNow() + offsetMs;
