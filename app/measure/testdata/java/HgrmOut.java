// HgrmOut records "value count" lines from stdin into a Java HdrHistogram
// (lowest 1, the highest given, 3 significant digits) and prints either its
// outputPercentileDistribution in milliseconds ("hgrm") or an interval log
// of one interval per "#interval" line ("hlog", HistogramLogWriter).
// It is run by the measure package's tests when java and Debian's
// libhdrhistogram-java are installed.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

public class HgrmOut {
    public static void main(String[] args) throws Exception {
        long highest = Long.parseLong(args[1]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Histogram h = new Histogram(1, highest, 3);
        if (args[0].equals("hgrm")) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.trim().split(" ");
                h.recordValueWithCount(Long.parseLong(f[0]), Long.parseLong(f[1]));
            }
            h.outputPercentileDistribution(out, 5, 1e6);
        } else {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputLogFormatVersion();
            w.outputStartTime(0);
            w.outputLegend();
            long t = 0;
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("#interval")) {
                    h.setStartTimeStamp(t);
                    h.setEndTimeStamp(t + 1000);
                    h.setTag(line.substring(9).trim());
                    w.outputIntervalHistogram(h);
                    h.reset();
                    t += 1000;
                    continue;
                }
                String[] f = line.trim().split(" ");
                h.recordValueWithCount(Long.parseLong(f[0]), Long.parseLong(f[1]));
            }
        }
        out.flush();
    }
}
