// read_hlog.js reads an interval log with HdrHistogramJS's
// HistogramLogReader and prints, per tag, the total count, the values at
// 50, 90, 99, 99.9 and 99.99 % and the max of all its intervals added
// together: "tag count p50 p90 p99 p99.9 p99.99 max".
// Usage: NODE_PATH=<dir>/node_modules node read_hlog.js FILE
const fs = require("fs");
const hdr = require("hdr-histogram-js");
const reader = new hdr.HistogramLogReader(fs.readFileSync(process.argv[2], "utf8"), 64);
const byTag = new Map();
for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) {
  let acc = byTag.get(h.tag);
  if (!acc) {
    acc = hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1, highestTrackableValue: h.highestTrackableValue, numberOfSignificantValueDigits: 3 });
    byTag.set(h.tag, acc);
  }
  acc.add(h);
}
for (const [tag, h] of byTag) {
  const p = [50, 90, 99, 99.9, 99.99].map((q) => h.getValueAtPercentile(q));
  console.log([tag, h.totalCount, ...p, h.maxValue].join(" "));
}
