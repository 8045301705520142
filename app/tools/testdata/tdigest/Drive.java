import com.tdunning.math.stats.AVLTreeDigest;

// Prints t-digest 3.3's AVLTreeDigest(100) quantiles (its Random seeded
// with -Dtdseed) over the value sets the Go test draws the same way.
public class Drive {
    static int value(int set, int i) {
        switch (set) {
            case 0: return 1 + (i * 7919) % 3;                              // a fast server, whole ms
            case 1: return (i % 1000 < 40) ? 400 - (i % 1000) * 10 : 1 + (i * 31) % 2; // a stall of 400 ms a second
            case 2: return (int) (((long) i * 2654435761L) % 5000);          // spread 0..4999
            default: return (i % 97 == 0) ? 1200 + i % 300 : 2 + (i * 13) % 7;
        }
    }
    public static void main(String[] a) {
        int[] sizes = {1, 2, 3, 10, 100, 1000, 5000, 20000, 100000};
        double[] qs = {0, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1};
        for (int set = 0; set < 4; set++) {
            for (int n : sizes) {
                AVLTreeDigest d = new AVLTreeDigest(100.0);
                for (int i = 0; i < n; i++) d.add(value(set, i));
                StringBuilder sb = new StringBuilder();
                sb.append(set).append(' ').append(n).append(' ').append(d.centroidCount());
                for (double q : qs) sb.append(' ').append(Double.toHexString(d.quantile(q)));
                System.out.println(sb);
            }
        }
    }
}
