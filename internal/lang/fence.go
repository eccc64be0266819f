package lang

import "strings"

// FencedBlock returns the first ``` block of reply tagged with one of tags
// (or untagged), and whether there was one. An unterminated block runs to
// the end of the reply.
func FencedBlock(reply string, tags ...string) (string, bool) {
	rest := reply
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			return "", false
		}
		rest = rest[i+3:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			return "", false
		}
		tag := strings.ToLower(strings.TrimSpace(rest[:nl]))
		body := rest[nl+1:]
		end := strings.Index(body, "```")
		block := body
		if end >= 0 {
			block, rest = body[:end], body[end+3:]
		} else {
			rest = ""
		}
		if tag == "" || containsTag(tags, tag) {
			return block, true
		}
		if end < 0 {
			return "", false
		}
	}
}

func containsTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}
