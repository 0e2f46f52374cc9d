// Call sites and method/constructor definitions of Java files, resolved by javac itself
// (the compiler's Tree API: parse, attribute, then the ExecutableElement each call invokes).
//
// Usage: java JavaCalls.java DIR FILE... → one JSON object on stdout:
// {"defs": [{"file", "name", "line", "kind"}], "calls": [{"file", "line", "nearest", "outer", "decls", "callee": {"file", "line"}}]}
//
// Missing dependencies are not errors: a call whose receiver or arguments depend on a class that
// is absent does not resolve to a corpus declaration and drops out (javac is told to attribute
// despite errors). A constructor is named after its class; `line` is 1-based, at the
// declaration's name; `nearest`/`outer` name the innermost/outermost enclosing method or
// constructor, or null in a field initialiser or initialiser block (`decls` then names the
// field, or the class).
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.File;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.*;
import javax.tools.*;

public class JavaCalls {
  static final StringBuilder out = new StringBuilder();

  public static void main(String[] args) throws Exception {
    Path root = Paths.get(args[0]).toAbsolutePath().normalize();
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, null);
    List<File> files = new ArrayList<>();
    for (int i = 1; i < args.length; i++) files.add(root.resolve(args[i]).toFile());
    JavacTask task = (JavacTask) compiler.getTask(null, fm, d -> {}, List.of("-proc:none", "-implicit:none", "-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW", "-Xmaxerrs", "0"), null, fm.getJavaFileObjectsFromFiles(files));
    List<CompilationUnitTree> units = new ArrayList<>();
    for (CompilationUnitTree u : task.parse()) units.add(u);
    try {
      task.analyze();
    } catch (Throwable t) {
      // An internal failure on broken input leaves what was attributed so far.
    }
    Trees trees = Trees.instance(task);
    SourcePositions sp = trees.getSourcePositions();
    List<String> defs = new ArrayList<>();
    List<String> calls = new ArrayList<>();
    for (CompilationUnitTree cu : units) {
      String file = root.relativize(Paths.get(cu.getSourceFile().toUri()).normalize()).toString().replace(File.separatorChar, '/');
      new TreePathScanner<Void, Void>() {
        @Override
        public Void visitMethod(MethodTree m, Void v) {
          int[] at = nameLine(trees, sp, getCurrentPath());
          if (m.getBody() != null && at != null) defs.add(String.format("{\"file\":%s,\"name\":%s,\"line\":%d,\"kind\":\"Method\"}", q(file), q(methodName(getCurrentPath())), at[1]));
          return super.visitMethod(m, v);
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
          site(t.getMethodSelect());
          return super.visitMethodInvocation(t, v);
        }

        @Override
        public Void visitNewClass(NewClassTree t, Void v) {
          site(t.getIdentifier());
          return super.visitNewClass(t, v);
        }

        void site(Tree name) {
          long p = sp.getEndPosition(cu, name);
          if (p < 0 || sp.getStartPosition(cu, name) < 0) return; // generated (implicit super())
          Element e = trees.getElement(getCurrentPath());
          if (!(e instanceof ExecutableElement)) return;
          TreePath decl = trees.getPath(e);
          if (decl == null || !(decl.getLeaf() instanceof MethodTree) || ((MethodTree) decl.getLeaf()).getBody() == null) return;
          int[] at = nameLine(trees, sp, decl);
          if (at == null) return;
          String callee = root.relativize(Paths.get(decl.getCompilationUnit().getSourceFile().toUri()).normalize()).toString().replace(File.separatorChar, '/');
          if (callee.startsWith("..")) return;
          List<String> names = new ArrayList<>();
          List<String> decls = new ArrayList<>();
          String cls = null;
          for (TreePath path = getCurrentPath(); path != null; path = path.getParentPath()) {
            Tree leaf = path.getLeaf();
            if (leaf instanceof MethodTree) names.add(methodName(path));
            else if (leaf instanceof VariableTree && path.getParentPath().getLeaf() instanceof ClassTree) decls.add(((VariableTree) leaf).getName().toString());
            else if (leaf instanceof ClassTree && cls == null && ((ClassTree) leaf).getSimpleName().length() > 0) cls = ((ClassTree) leaf).getSimpleName().toString();
          }
          if (names.isEmpty() && decls.isEmpty() && cls != null) decls.add(cls);
          int line = (int) cu.getLineMap().getLineNumber(p);
          calls.add(String.format("{\"file\":%s,\"line\":%d,\"nearest\":%s,\"outer\":%s,\"decls\":[%s],\"callee\":{\"file\":%s,\"line\":%d}}",
              q(file), line, names.isEmpty() ? "null" : q(names.get(0)), names.isEmpty() ? "null" : q(names.get(names.size() - 1)),
              String.join(",", decls.stream().map(JavaCalls::q).toList()), q(callee), at[1]));
        }
      }.scan(cu, null);
    }
    System.out.print("{\"defs\":[" + String.join(",", defs) + "],\"calls\":[" + String.join(",", calls) + "]}");
  }

  /** A method's name; a constructor's is its class's. */
  static String methodName(TreePath path) {
    MethodTree m = (MethodTree) path.getLeaf();
    String n = m.getName().toString();
    if (!n.equals("<init>")) return n;
    Tree c = path.getParentPath().getLeaf();
    return c instanceof ClassTree ? ((ClassTree) c).getSimpleName().toString() : n;
  }

  /** Offset and 1-based line of a declared method's name, or null for a generated one (default constructor). */
  static int[] nameLine(Trees trees, SourcePositions sp, TreePath path) {
    CompilationUnitTree cu = path.getCompilationUnit();
    MethodTree m = (MethodTree) path.getLeaf();
    long start = sp.getEndPosition(cu, m.getModifiers());
    if (start < 0) start = sp.getStartPosition(cu, m);
    long end = sp.getEndPosition(cu, m);
    if (start < 0 || end <= start) return null;
    CharSequence text;
    try {
      text = cu.getSourceFile().getCharContent(true);
    } catch (java.io.IOException e) {
      return null;
    }
    String name = methodName(path);
    int from = (int) start;
    int lim = (int) Math.min(end, text.length());
    String s = text.subSequence(from, lim).toString();
    int i = -1;
    for (int k = s.indexOf(name); k >= 0; k = s.indexOf(name, k + 1)) {
      boolean before = k == 0 || !Character.isJavaIdentifierPart(s.charAt(k - 1));
      boolean after = k + name.length() >= s.length() || !Character.isJavaIdentifierPart(s.charAt(k + name.length()));
      if (before && after) {
        i = k;
        break;
      }
    }
    if (i < 0) return null;
    return new int[] {from + i, (int) cu.getLineMap().getLineNumber(from + i)};
  }

  static String q(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
