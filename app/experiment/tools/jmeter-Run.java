import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.reporters.Summariser;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jmeter.testelement.property.DoubleProperty;
import org.apache.jmeter.testelement.property.IntegerProperty;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;

// Builds JMeter's test plan with its API (no .jmx: Debian's 2.13 cannot
// load one) and runs it as jmeter -n -t plan.jmx -l results.jtl would:
// a thread group of THREADS threads, ramp-up 0 (rampup=S: S seconds), loop
// forever, scheduler duration SECS s; one HTTP Request to
// http://HOST:PORT/; and, given ctt=N, a Constant Throughput Timer of N
// samples a minute calculated for this thread only (jmeter-ctt).
public class Run {
    public static void main(String[] a) throws Exception {
        String host = a[0]; int port = Integer.parseInt(a[1]);
        int threads = Integer.parseInt(a[2]); long secs = Long.parseLong(a[3]);
        String jtl = a[4];
        JMeterUtils.setJMeterHome("/usr/share/jmeter");
        JMeterUtils.loadJMeterProperties("/usr/share/jmeter/bin/jmeter.properties");
        double ctt = 0; // ctt=N: a Constant Throughput Timer of N samples a minute, this thread only
        int rampUp = 0; // rampup=S: the thread group's ramp-up period, S seconds
        for (int i = 5; i < a.length; i++) { // -J's property=value
            String[] kv = a[i].split("=", 2);
            if (kv[0].equals("ctt")) { ctt = Double.parseDouble(kv[1]); continue; }
            if (kv[0].equals("rampup")) { rampUp = Integer.parseInt(kv[1]); continue; }
            JMeterUtils.setProperty(kv[0], kv[1]);
        }
        JMeterUtils.initLogging();
        JMeterUtils.initLocale();

        HTTPSamplerProxy http = new HTTPSamplerProxy();
        http.setName("HTTP Request");
        http.setDomain(host); http.setPort(port); http.setPath("/"); http.setMethod("GET");
        http.setProtocol("http");
        http.setUseKeepAlive(true);

        LoopController loop = new LoopController();
        loop.setLoops(-1); loop.setContinueForever(true); loop.setFirst(true); loop.initialize();

        ThreadGroup tg = new ThreadGroup();
        tg.setName("Thread Group");
        tg.setNumThreads(threads); tg.setRampUp(rampUp);
        tg.setSamplerController(loop);
        tg.setScheduler(true); tg.setDuration(secs);
        long now = System.currentTimeMillis();
        tg.setStartTime(now); tg.setEndTime(now + secs * 1000);

        TestPlan plan = new TestPlan("plan");
        HashTree tree = new HashTree();
        HashTree planTree = tree.add(plan);
        HashTree tgTree = planTree.add(tg);
        tgTree.add(http);
        if (ctt > 0) {
            ConstantThroughputTimer timer = new ConstantThroughputTimer();
            timer.setName("Constant Throughput Timer");
            // A TestBean: the engine sets its fields from these
            // properties (TestBeanHelper.prepare), as a .jmx's
            // <doubleProp name="throughput"> and <intProp name="calcMode">.
            timer.setProperty(new DoubleProperty("throughput", ctt));
            timer.setProperty(new IntegerProperty("calcMode", 0)); // "this thread only"
            tgTree.add(timer);
        }

        Summariser summ = new Summariser("summary");
        ResultCollector rc = new ResultCollector(summ);
        rc.setFilename(jtl);
        tree.add(tree.getArray()[0], rc);

        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(tree);
        engine.run();
        System.out.println("... end of run");
        System.exit(0);
    }
}
