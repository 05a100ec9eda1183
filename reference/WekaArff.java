import weka.core.*;
import weka.core.converters.ArffLoader;
import java.io.*;
import java.util.*;

/** Prints how Weka parses ARFF files, as JSON. Usage: java WekaArff file.arff [file2.arff ...]
 *  One JSON object per file per line. */
public class WekaArff {
  static String q(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
  static String num(double d) {
    return Double.toString(d);  // NaN/Infinity are accepted by Python's json
  }
  public static void main(String[] args) throws Exception {
    for (String path : args) {
      StringBuilder out = new StringBuilder();
      try {
        Reader r = new BufferedReader(new InputStreamReader(new FileInputStream(path), "UTF-8"));
        Instances data = new ArffLoader.ArffReader(r).getData();
        out.append("{\"relation\":").append(q(data.relationName())).append(",\"attributes\":[");
        for (int j = 0; j < data.numAttributes(); j++) {
          Attribute a = data.attribute(j);
          if (j > 0) out.append(',');
          out.append("[").append(q(a.name())).append(',');
          if (a.isNumeric() && !a.isDate()) out.append("\"numeric\",null");
          else if (a.isNominal()) {
            out.append("\"nominal\",[");
            for (int k = 0; k < a.numValues(); k++) { if (k > 0) out.append(','); out.append(q(a.value(k))); }
            out.append(']');
          } else if (a.isString()) out.append("\"string\",null");
          else if (a.isDate()) out.append("\"date\",").append(q(a.getDateFormat()));
          else out.append("\"other\",null");
          out.append(']');
        }
        out.append("],\"rows\":[");
        for (int i = 0; i < data.numInstances(); i++) {
          Instance inst = data.instance(i);
          if (i > 0) out.append(',');
          out.append("[[");
          for (int j = 0; j < data.numAttributes(); j++) {
            if (j > 0) out.append(',');
            Attribute a = data.attribute(j);
            if (inst.isMissing(j)) out.append("null");
            else if (a.isNominal() || a.isString()) {
              String v;
              try { v = q(inst.stringValue(j)); } catch (Exception e) { v = q("<<" + e + ">>"); }
              out.append(v);
            }
            else out.append(num(inst.value(j)));
          }
          out.append("],").append(num(inst.weight())).append(",").append(inst instanceof SparseInstance).append("]");
        }
        out.append("]}");
      } catch (Throwable e) {
        out = new StringBuilder("{\"error\":" + q(e.toString()) + "}");
      }
      System.out.println(out);
    }
  }
}
