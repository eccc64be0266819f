package ticoder.jworker;

import java.util.Map;

/** Loads a program's classes afresh for each test. */
final class Loader extends ClassLoader {
    private final Map<String, byte[]> classes;

    Loader(Map<String, byte[]> classes) {
        super("ticoder-program", ClassLoader.getSystemClassLoader());
        this.classes = classes;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] b = classes.get(name);
        if (b == null) {
            b = ProjectPath.CURRENT.classBytes(name);
        }
        if (b == null) {
            throw new ClassNotFoundException(name);
        }
        return defineClass(name, b, 0, b.length);
    }

    @Override
    protected java.net.URL findResource(String name) {
        return ProjectPath.CURRENT.resource(name);
    }
}
