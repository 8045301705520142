// HgrmOut records "value count" lines from stdin into a Java HdrHistogram
// (lowest 1, the highest given, 3 significant digits) and prints either its
// outputPercentileDistribution in milliseconds at each "#end" line ("hgrm",
// the outputs separated by "#end" lines) or an interval log of one interval
// per "#interval TAG START_MS" line ("hlog", HistogramLogWriter; each
// interval is one second from START_MS).
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
                if (line.startsWith("#end")) {
                    h.outputPercentileDistribution(out, 5, 1e6);
                    out.println("#end");
                    h.reset();
                    continue;
                }
                String[] f = line.trim().split(" ");
                h.recordValueWithCount(Long.parseLong(f[0]), Long.parseLong(f[1]));
            }
        } else {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputLogFormatVersion();
            w.outputStartTime(0);
            w.outputLegend();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("#interval")) {
                    String[] f = line.split(" ");
                    long t = Long.parseLong(f[2]);
                    h.setStartTimeStamp(t);
                    h.setEndTimeStamp(t + 1000);
                    h.setTag(f[1]);
                    w.outputIntervalHistogram(h);
                    h.reset();
                    continue;
                }
                String[] f = line.trim().split(" ");
                h.recordValueWithCount(Long.parseLong(f[0]), Long.parseLong(f[1]));
            }
        }
        out.flush();
    }
}
