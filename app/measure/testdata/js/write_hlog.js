// write_hlog.js writes an interval log with HdrHistogramJS (npm
// hdr-histogram-js): two tags, three one-second intervals each, values in
// microseconds (HdrHistogramJS's Interval_Max divides by 1000: ms). The
// values are a fixed mix: a fast mode near 120 µs and, in the second
// interval, one 100 ms stall's queue (100 ms, 99 ms, ... 1 ms).
// Usage: NODE_PATH=<dir>/node_modules node write_hlog.js > hdrhistogramjs.hlog
const hdr = require("hdr-histogram-js");
let out = "";
const w = new hdr.HistogramLogWriter((s) => { out += s; });
w.outputLogFormatVersion();
w.outputStartTime(1764576000000); // 2025-12-01T08:00:00Z
w.outputLegend();
for (const tag of ["open", "closed"]) {
  for (let i = 0; i < 3; i++) {
    const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3600e6, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < 1000; k++) h.recordValue(100 + (k * 37) % 50);
    if (i === 1) {
      if (tag === "open") for (let v = 100000; v >= 1000; v -= 1000) h.recordValue(v);
      else h.recordValue(100000);
    }
    h.tag = tag;
    h.startTimeStampMsec = 1764576000000 + i * 1000;
    h.endTimeStampMsec = h.startTimeStampMsec + 1000;
    w.baseTime = 1764576000000;
    w.outputIntervalHistogram(h);
  }
}
process.stdout.write(out);
