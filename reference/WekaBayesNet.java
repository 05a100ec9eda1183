/*
 * WekaBayesNet: a small batch driver around Weka's public API, used by
 * record_weka_bayesnet.py to record Weka 3.6.14's BayesNet classifiers
 * (TAN and HillClimber structure search, SimpleEstimator) together with the
 * learned structure.
 *
 * It is this project's own code; it only calls Weka (GPL) through its API
 * and contains no Weka source.  The one subclass below (Probe) adds no
 * behaviour: it only reads the fitted discretization filter, which BayesNet
 * keeps in a protected field.
 *
 * Build and run (one JVM start for any number of jobs):
 *
 *   javac -cp /usr/share/java/weka.jar -d BUILD_DIR WekaBayesNet.java
 *   java -cp /usr/share/java/weka.jar:BUILD_DIR WekaBayesNet JOBFILE > OUTFILE
 *
 * JOBFILE holds one job per line, fields separated by TAB characters; empty
 * lines and lines starting with '#' are ignored.  Rows, weights and the
 * class attribute work as in WekaRecord.java (0-based ARFF rows, comma
 * separated or "all"/"none"; weights "-" or one double per training row;
 * the class is the last attribute).
 *
 *   BN  id  arff  trainRows  trainWeights  testRows  mode  classifier...
 *       classifier is a Weka command line that must start with
 *       weka.classifiers.bayes.BayesNet (parsed with Utils.splitOptions and
 *       given to BayesNet.setOptions).  After buildClassifier it prints
 *         NODE i cardinality k p1 ... pk   for every node i (attribute i of
 *                                          the data, the class included):
 *                                          its number of values after
 *                                          discretization and its parents
 *                                          in Weka's own order (getParent)
 *         CUT i n c1 ... cn                for every attribute i that
 *                                          BayesNet discretized (n = 0: no
 *                                          cut point, one bin)
 *         SCORE s                          measureBayesScore() of the fitted
 *                                          network
 *       then, per test row, "D row predicted p_0 ... p_{k-1}"
 *       (distributionForInstance) or, with mode "pred", "P row predicted"
 *       (predicted = first maximum, as Classifier.classifyInstance; -1 when
 *       every probability is <= 0), and last
 *         FILL i v ...                     the value (index of the nominal
 *                                          value after discretization) that
 *                                          BayesNet puts in for a missing
 *                                          value of each non-class attribute
 *                                          i at prediction time: the result
 *                                          of normalizeInstance on a copy of
 *                                          the first row with every
 *                                          non-class value missing
 *         BUILDMS t                        milliseconds of buildClassifier
 *
 * Every double is printed as  Double.toString(x) + "|" + hex bits of
 * Double.doubleToRawLongBits(x).
 *
 * Output of a job:  "BEGIN id" ... "END id OK millis"  or, when Weka throws,
 * "BEGIN id" ... "END id ERROR ExceptionClass: message" (message on one line).
 */

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

import weka.classifiers.bayes.BayesNet;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;

public class WekaBayesNet {

  /** BayesNet unchanged; it only exposes what the fitted filters hold. */
  public static class Probe extends BayesNet {
    static final long serialVersionUID = 1L;

    /** Cut points of attribute i, or null when BayesNet did not discretize. */
    double[] cutPoints(int i) {
      return m_DiscretizeFilter == null ? null : m_DiscretizeFilter.getCutPoints(i);
    }

    boolean discretized() {
      return m_DiscretizeFilter != null;
    }

    /** What BayesNet makes of an instance before estimating (discretized, filled in). */
    Instance normalized(Instance instance) throws Exception {
      return normalizeInstance(instance);
    }
  }

  private static final Map<String, Instances> CACHE = new HashMap<String, Instances>();
  private static PrintStream out;

  private static Instances load(String path) throws Exception {
    Instances data = CACHE.get(path);
    if (data == null) {
      BufferedReader reader = new BufferedReader(new FileReader(path));
      data = new Instances(reader);
      reader.close();
      data.setClassIndex(data.numAttributes() - 1);
      CACHE.put(path, data);
    }
    return data;
  }

  private static String num(double x) {
    return Double.toString(x) + "|" + Long.toHexString(Double.doubleToRawLongBits(x));
  }

  private static int[] parseRows(String spec, int n) {
    if (spec.equals("all")) {
      int[] rows = new int[n];
      for (int i = 0; i < n; i++) {
        rows[i] = i;
      }
      return rows;
    }
    if (spec.length() == 0 || spec.equals("none")) {
      return new int[0];
    }
    String[] parts = spec.split(",");
    int[] rows = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      rows[i] = Integer.parseInt(parts[i].trim());
    }
    return rows;
  }

  private static double[] parseWeights(String spec, int n) {
    if (spec.equals("-")) {
      return null;
    }
    String[] parts = spec.split(",");
    if (parts.length != n) {
      throw new IllegalArgumentException("got " + parts.length + " weights for " + n + " rows");
    }
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = Double.parseDouble(parts[i].trim());
    }
    return w;
  }

  private static Instances subset(Instances data, int[] rows, double[] weights) {
    Instances result = new Instances(data, rows.length);
    for (int k = 0; k < rows.length; k++) {
      result.add(data.instance(rows[k]));  // Instances.add stores a copy
      if (weights != null) {
        result.instance(k).setWeight(weights[k]);
      }
    }
    return result;
  }

  private static int predicted(double[] dist) {
    double max = 0;
    int maxIndex = 0;
    for (int j = 0; j < dist.length; j++) {
      if (dist[j] > max) {
        maxIndex = j;
        max = dist[j];
      }
    }
    return max > 0 ? maxIndex : -1;
  }

  private static void bn(Instances data, Instances train, int[] testRows, boolean full,
                         String spec) throws Exception {
    String[] options = Utils.splitOptions(spec);
    if (!options[0].equals("weka.classifiers.bayes.BayesNet")) {
      throw new IllegalArgumentException("not a BayesNet command line: " + options[0]);
    }
    options[0] = "";
    Probe net = new Probe();
    net.setOptions(options);
    long start = System.currentTimeMillis();
    net.buildClassifier(train);
    long buildMillis = System.currentTimeMillis() - start;

    for (int i = 0; i < net.getNrOfNodes(); i++) {
      StringBuilder sb = new StringBuilder("NODE " + i + " " + net.getCardinality(i) + " "
                                           + net.getNrOfParents(i));
      for (int k = 0; k < net.getNrOfParents(i); k++) {
        sb.append(' ').append(net.getParent(i, k));
      }
      out.println(sb.toString());
    }
    if (net.discretized()) {
      for (int i = 0; i < data.numAttributes(); i++) {
        if (i == data.classIndex() || !data.attribute(i).isNumeric()) {
          continue;
        }
        double[] cp = net.cutPoints(i);
        int n = cp == null ? 0 : cp.length;
        StringBuilder sb = new StringBuilder("CUT " + i + " " + n);
        for (int j = 0; j < n; j++) {
          sb.append(' ').append(num(cp[j]));
        }
        out.println(sb.toString());
      }
    }
    out.println("SCORE " + num(net.measureBayesScore()));

    for (int k = 0; k < testRows.length; k++) {
      Instance inst = (Instance) data.instance(testRows[k]).copy();
      inst.setDataset(data);
      double[] d = net.distributionForInstance(inst);
      StringBuilder sb = new StringBuilder(full ? "D " : "P ");
      sb.append(testRows[k]).append(' ').append(predicted(d));
      if (full) {
        for (int j = 0; j < d.length; j++) {
          sb.append(' ').append(num(d[j]));
        }
      }
      out.println(sb.toString());
    }

    if (data.numInstances() > 0) {
      Instance blank = (Instance) data.instance(0).copy();
      blank.setDataset(data);
      for (int i = 0; i < data.numAttributes(); i++) {
        if (i != data.classIndex()) {
          blank.setMissing(i);
        }
      }
      Instance filled = net.normalized(blank);
      StringBuilder sb = new StringBuilder("FILL");
      for (int i = 0; i < data.numAttributes(); i++) {
        if (i != data.classIndex()) {
          sb.append(' ').append(i).append(' ').append(num(filled.value(i)));
        }
      }
      out.println(sb.toString());
    }
    out.println("BUILDMS " + buildMillis);
  }

  private static String oneLine(Throwable t) {
    String m = t.getClass().getName() + ": " + t.getMessage();
    return m.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: java -cp weka.jar:. WekaBayesNet JOBFILE");
      System.exit(2);
    }
    out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, "UTF-8");
    BufferedReader jobs = new BufferedReader(new FileReader(args[0]));
    String line;
    while ((line = jobs.readLine()) != null) {
      if (line.trim().length() == 0 || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      String id = f[1];
      long start = System.currentTimeMillis();
      out.println("BEGIN " + id);
      try {
        if (!f[0].equals("BN")) {
          throw new IllegalArgumentException("unknown job kind " + f[0]);
        }
        Instances data = load(f[2]);
        int[] rows = parseRows(f[3], data.numInstances());
        Instances train = subset(data, rows, parseWeights(f[4], rows.length));
        int[] test = parseRows(f[5], data.numInstances());
        bn(data, train, test, f[6].equals("dist"), f[7]);
        out.println("END " + id + " OK " + (System.currentTimeMillis() - start));
      } catch (Throwable t) {
        out.println("END " + id + " ERROR " + oneLine(t));
      }
      out.flush();
    }
    jobs.close();
    out.flush();
  }
}
