package java

import "testing"

// TestWithJavadoc: the exported class gets the prompt's Javadoc of the
// method when its declaration has none, re-indented to it, and is left
// alone otherwise.
func TestWithJavadoc(t *testing.T) {
	prompt := "/** The class. */\nclass MinCost {\n    /**\n     * Return the minimum cost.\n     */\n    public static int minCost(int[][] cost, int m, int n) {\n    }\n}\n"
	for _, tc := range []struct {
		name, prompt, program, want string
	}{
		{"added", prompt,
			"class MinCost {\n    public static int minCost(int[][] cost, int m, int n) {\n        return 0;\n    }\n}\n",
			"class MinCost {\n    /**\n     * Return the minimum cost.\n     */\n    public static int minCost(int[][] cost, int m, int n) {\n        return 0;\n    }\n}\n"},
		{"re-indented", prompt,
			"class MinCost {\n  static int minCost(int[][] cost, int m, int n) {\n    return 0;\n  }\n}\n",
			"class MinCost {\n  /**\n   * Return the minimum cost.\n   */\n  static int minCost(int[][] cost, int m, int n) {\n    return 0;\n  }\n}\n"},
		{"helper first", prompt,
			"class MinCost {\n    static int go() { return 0; }\n\n    public static int minCost(int[][] cost, int m, int n) {\n        return go();\n    }\n}\n",
			"class MinCost {\n    static int go() { return 0; }\n\n    /**\n     * Return the minimum cost.\n     */\n    public static int minCost(int[][] cost, int m, int n) {\n        return go();\n    }\n}\n"},
		{"kept", prompt,
			"class MinCost {\n    /** Its own. */\n    public static int minCost(int[][] cost, int m, int n) {\n        return 0;\n    }\n}\n",
			"class MinCost {\n    /** Its own. */\n    public static int minCost(int[][] cost, int m, int n) {\n        return 0;\n    }\n}\n"},
		{"prompt without Javadoc", "class MinCost {\n    public static int minCost(int[][] cost, int m, int n) {\n    }\n}\n",
			"class MinCost {\n    public static int minCost(int[][] cost, int m, int n) {\n        return 0;\n    }\n}\n",
			"class MinCost {\n    public static int minCost(int[][] cost, int m, int n) {\n        return 0;\n    }\n}\n"},
		{"no such method", prompt, "class MinCost {\n    static int other() { return 0; }\n}\n", "class MinCost {\n    static int other() { return 0; }\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := withJavadoc(tc.prompt, "minCost", tc.program); got != tc.want {
				t.Errorf("withJavadoc:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
