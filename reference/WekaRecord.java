/*
 * WekaRecord: a small batch driver around Weka's public API, used by
 * record_weka.py to record reference outputs of Weka 3.6.14.
 *
 * It is this project's own code; it only calls Weka (GPL) through its API
 * and contains no Weka source.
 *
 * Build and run (one JVM start for any number of jobs):
 *
 *   javac -cp /usr/share/java/weka.jar -d BUILD_DIR WekaRecord.java
 *   java -cp /usr/share/java/weka.jar:BUILD_DIR WekaRecord JOBFILE > OUTFILE
 *
 * JOBFILE holds one job per line, fields separated by TAB characters.
 * Empty lines and lines starting with '#' are ignored.  Row lists are
 * 0-based row indices of the ARFF file, comma separated, or "all".
 * Weight lists are "-" (every weight 1) or comma separated doubles, one per
 * training row, in the order of the row list.  The class attribute is
 * always the last attribute.
 *
 *   INFO  id  arff
 *       Prints the header facts and the class value index of every row
 *       (-1 for a missing class).
 *   CUTS  id  arff  rows  weights
 *       Runs weka.filters.supervised.attribute.Discretize (default options)
 *       on the selected rows and prints getCutPoints(i) of every numeric
 *       attribute i ("CUT i n v1 ... vn"; n = 0 when Discretize returns
 *       null, i.e. no cut point).
 *   ORDER id  arff  rows
 *       Prints "ORDER r1 r2 ..." : the selected rows in the order in which
 *       weka.classifiers.bayes.NaiveBayes feeds them to its estimators.
 *       NaiveBayes.buildClassifier calls Instances.sort(attribute) on its
 *       copy of the training data for every numeric attribute in turn (to
 *       find the numeric precision) and then adds the rows in the resulting
 *       order; Instances.sort is a quicksort, not stable.  The same public
 *       calls are made here on a copy whose weights carry the row numbers.
 *   DIST  id  arff  trainRows  trainWeights  testRows  mode  classifier...
 *       Builds the classifier (class name followed by its options, exactly
 *       as on Weka's command line; parsed with weka.core.Utils.splitOptions)
 *       on the training rows and prints, for every test row,
 *       "D row predicted p_0 ... p_{k-1}" where p is
 *       distributionForInstance in the class attribute's declared value
 *       order and predicted is the index Classifier.classifyInstance would
 *       return (first maximum; -1 when every probability is <= 0).
 *       With mode "pred" only "P row predicted" is printed.
 *
 * Every double is printed as  Double.toString(x) + "|" + hex bits of
 * Double.doubleToRawLongBits(x), so the reader can rebuild the exact
 * IEEE-754 value from the bits and check the decimal text against it.
 *
 * Output of a job:  "BEGIN id" ... "END id OK millis"  or, when Weka throws,
 * "BEGIN id" ... "END id ERROR ExceptionClass: message" (message on one line).
 */

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintStream;
import java.io.BufferedOutputStream;
import java.util.HashMap;
import java.util.Map;

import weka.classifiers.Classifier;
import weka.core.Attribute;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;
import weka.filters.Filter;
import weka.filters.supervised.attribute.Discretize;

public class WekaRecord {

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

  /** A copy of the selected rows, in the given order, with optional weights. */
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

  private static void info(Instances data) {
    out.println("RELATION " + data.relationName());
    out.println("NUMINSTANCES " + data.numInstances());
    out.println("NUMATTRIBUTES " + data.numAttributes());
    for (int i = 0; i < data.numAttributes(); i++) {
      Attribute a = data.attribute(i);
      String type = a.isNominal() ? "nominal" : a.isNumeric() ? "numeric"
        : a.isString() ? "string" : "other";
      out.println("ATTRIBUTE " + i + "\t" + type + "\t" + a.numValues() + "\t" + a.name());
    }
    Attribute c = data.classAttribute();
    for (int j = 0; j < c.numValues(); j++) {
      out.println("CLASSVALUE " + j + "\t" + c.value(j));
    }
    StringBuilder sb = new StringBuilder("CLASSES");
    for (int i = 0; i < data.numInstances(); i++) {
      Instance inst = data.instance(i);
      sb.append(' ').append(inst.classIsMissing() ? -1 : (int) inst.classValue());
    }
    out.println(sb.toString());
    StringBuilder ms = new StringBuilder("MISSING");
    for (int i = 0; i < data.numAttributes(); i++) {
      ms.append(' ').append(data.attributeStats(i).missingCount);
    }
    out.println(ms.toString());
  }

  private static void cuts(Instances train) throws Exception {
    Discretize disc = new Discretize();
    disc.setInputFormat(train);
    Filter.useFilter(train, disc);
    for (int i = 0; i < train.numAttributes(); i++) {
      if (i == train.classIndex() || !train.attribute(i).isNumeric()) {
        continue;
      }
      double[] cp = disc.getCutPoints(i);
      StringBuilder sb = new StringBuilder("CUT " + i);
      int n = cp == null ? 0 : cp.length;
      sb.append(' ').append(n);
      for (int j = 0; j < n; j++) {
        sb.append(' ').append(num(cp[j]));
      }
      out.println(sb.toString());
    }
  }

  private static void order(Instances data, int[] rows) {
    Instances copy = subset(data, rows, null);
    for (int k = 0; k < rows.length; k++) {
      copy.instance(k).setWeight(rows[k]);  // row number rides along as the weight
    }
    copy.deleteWithMissingClass();
    for (int i = 0; i < copy.numAttributes(); i++) {
      if (i != copy.classIndex() && copy.attribute(i).isNumeric()) {
        copy.sort(copy.attribute(i));
      }
    }
    StringBuilder sb = new StringBuilder("ORDER");
    for (int k = 0; k < copy.numInstances(); k++) {
      sb.append(' ').append((int) copy.instance(k).weight());
    }
    out.println(sb.toString());
  }

  private static int predicted(double[] dist) {
    // Same rule as weka.classifiers.Classifier.classifyInstance (3.6).
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

  private static void dist(Instances data, Instances train, int[] testRows, boolean full,
                           String spec) throws Exception {
    String[] options = Utils.splitOptions(spec);
    String className = options[0];
    options[0] = "";
    Classifier classifier = Classifier.forName(className, options);
    classifier.buildClassifier(train);
    for (int k = 0; k < testRows.length; k++) {
      Instance inst = (Instance) data.instance(testRows[k]).copy();
      inst.setDataset(data);
      double[] d = classifier.distributionForInstance(inst);
      int pred = predicted(d);
      StringBuilder sb = new StringBuilder(full ? "D " : "P ");
      sb.append(testRows[k]).append(' ').append(pred);
      if (full) {
        for (int j = 0; j < d.length; j++) {
          sb.append(' ').append(num(d[j]));
        }
      }
      out.println(sb.toString());
    }
  }

  private static String oneLine(Throwable t) {
    String m = t.getClass().getName() + ": " + t.getMessage();
    return m.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: java -cp weka.jar:. WekaRecord JOBFILE");
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
      String kind = f[0];
      String id = f[1];
      long start = System.currentTimeMillis();
      out.println("BEGIN " + id);
      try {
        Instances data = load(f[2]);
        if (kind.equals("INFO")) {
          info(data);
        } else if (kind.equals("CUTS")) {
          int[] rows = parseRows(f[3], data.numInstances());
          cuts(subset(data, rows, parseWeights(f[4], rows.length)));
        } else if (kind.equals("ORDER")) {
          order(data, parseRows(f[3], data.numInstances()));
        } else if (kind.equals("DIST")) {
          int[] rows = parseRows(f[3], data.numInstances());
          Instances train = subset(data, rows, parseWeights(f[4], rows.length));
          int[] test = parseRows(f[5], data.numInstances());
          boolean full = f[6].equals("dist");
          dist(data, train, test, full, f[7]);
        } else {
          throw new IllegalArgumentException("unknown job kind " + kind);
        }
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
