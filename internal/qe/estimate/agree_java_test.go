package estimate

import (
	"context"
	"os/exec"
	"testing"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/qe"
)

// javaPrompt is MBJP/2's prompt, shortened.
const javaPrompt = `import java.io.*;
import java.lang.*;
import java.util.*;

class SimilarElements {
    /**
     * * Write a function to find the similar elements from the given two tuple lists.
     *
     * > similarElements([3, 4, 5, 6], [5, 7, 4, 10])
     * [4, 5]
     * > similarElements([1, 2, 3, 4], [5, 4, 3, 7])
     * [3, 4]
     */
    public static List<Integer> similarElements(List<Integer> testTup1, List<Integer> testTup2) {
`

func TestLanguageOf(t *testing.T) {
	cases := []struct{ id, prompt, want string }{
		{"MBJP/2", "", "java"},
		{"x", javaPrompt, "java"},
		{"Mbpp/2", "def f(x):\n    pass\n", ""},
		{"HumanEval/1", "class A:\n    def f(self):\n        pass\n", ""},
	}
	for _, c := range cases {
		if got := qe.LanguageOf(c.id, c.prompt); got != c.want {
			t.Errorf("qe.LanguageOf(%q) = %q, want %q", c.id, got, c.want)
		}
	}
	if e := (qe.Problem{Prompt: javaPrompt, Language: "java"}).Entry(); e != "similarElements" {
		t.Errorf("Java entry point %q, want similarElements", e)
	}
}

// TestAgreeJava scores Java candidates on the prompt's examples and on
// inputs mutated from them, in the JVM worker.
func TestAgreeJava(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK")
	}
	pool, err := jvm.NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	right := `        Set<Integer> a = new TreeSet<>(testTup1);
        a.retainAll(new HashSet<>(testTup2));
        return new ArrayList<>(a);
    }
}`
	same := `        List<Integer> out = new ArrayList<>();
        for (int x : testTup1) if (testTup2.contains(x) && !out.contains(x)) out.add(x);
        Collections.sort(out);
        return out;
    }
}`
	wrong := `        return new ArrayList<>(testTup1);
    }
}`
	broken := `        return testTup1 +;
    }
}`
	a := &Agree{JavaRunner: pool}
	p := qe.Problem{TaskID: "MBJP/2", Prompt: javaPrompt, Language: "java"}
	in, err := a.Prepare(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Examples) != 2 || len(in.Inputs) == 0 {
		t.Fatalf("prepared %d examples and %d inputs, want 2 and some", len(in.Examples), len(in.Inputs))
	}
	scores, err := a.Score(context.Background(), p, []string{right, same, wrong, broken})
	if err != nil {
		t.Fatal(err)
	}
	if !(scores[0] > scores[2] && scores[1] > scores[2] && scores[2] >= scores[3]) {
		t.Errorf("scores %v: want the right candidates above the wrong one, and the broken one last", scores)
	}
	if scores[0] != scores[1] {
		t.Errorf("scores %v: two candidates that behave alike should score alike", scores)
	}
	if _, err := (&Agree{}).Score(context.Background(), p, []string{right}); err == nil {
		t.Error("a Java problem without a Java runner: want an error")
	}
}
