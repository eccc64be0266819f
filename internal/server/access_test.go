package server

import (
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecideAccess: a token is needed off loopback (a random one unless
// given), or when asked for; the addresses carry it; names in Addr and, on
// every address, this computer's name are answered to.
func TestDecideAccess(t *testing.T) {
	const hostname = "devbox"
	const given = "given-token-0123456789"
	random := regexp.MustCompile(`^[0-9a-f]{48}$`)
	tests := []struct {
		name     string
		o        AccessOptions
		listen   string // the listener's address
		token    string // "random": a fresh random one
		urls     []string
		allow    []string
		loopback bool
	}{
		{"loopback", AccessOptions{Addr: "127.0.0.1:8080"}, "127.0.0.1:8080", "",
			[]string{"http://127.0.0.1:8080/"}, nil, true},
		{"other loopback", AccessOptions{Addr: "127.0.0.2:8080"}, "127.0.0.2:8080", "",
			[]string{"http://127.0.0.2:8080/"}, nil, true},
		{"IPv6 loopback", AccessOptions{Addr: "[::1]:8080"}, "[::1]:8080", "",
			[]string{"http://[::1]:8080/"}, nil, true},
		{"localhost", AccessOptions{Addr: "localhost:8080"}, "127.0.0.1:8080", "",
			[]string{"http://localhost:8080/", "http://127.0.0.1:8080/"}, []string{"localhost"}, true},
		{"LAN address", AccessOptions{Addr: "192.0.2.7:8080"}, "192.0.2.7:8080", "random",
			[]string{"http://192.0.2.7:8080/?token=TOKEN"}, nil, false},
		{"host name", AccessOptions{Addr: "devbox.lan:8080"}, "192.0.2.7:8080", "random",
			[]string{"http://devbox.lan:8080/?token=TOKEN", "http://192.0.2.7:8080/?token=TOKEN"}, []string{"devbox.lan"}, false},
		{"every address", AccessOptions{Addr: "0.0.0.0:8080"}, "0.0.0.0:8080", "random",
			[]string{"http://" + hostname + ":8080/?token=TOKEN", "http://127.0.0.1:8080/?token=TOKEN"}, []string{hostname}, false},
		{"every address, IPv6", AccessOptions{Addr: ":8080"}, "[::]:8080", "random",
			[]string{"http://" + hostname + ":8080/?token=TOKEN", "http://127.0.0.1:8080/?token=TOKEN"}, []string{hostname}, false},
		{"LAN with a given token", AccessOptions{Addr: "192.0.2.7:8080", Token: given}, "192.0.2.7:8080", given,
			[]string{"http://192.0.2.7:8080/?token=" + given}, nil, false},
		{"loopback with a given token", AccessOptions{Addr: "127.0.0.1:8080", Token: given}, "127.0.0.1:8080", given,
			[]string{"http://127.0.0.1:8080/?token=" + given}, nil, true},
		{"loopback, token required", AccessOptions{Addr: "127.0.0.1:8080", RequireToken: true}, "127.0.0.1:8080", "random",
			[]string{"http://127.0.0.1:8080/?token=TOKEN"}, nil, true},
		{"allowed host", AccessOptions{Addr: "127.0.0.1:8080", AllowHosts: []string{"localhost:9000"}}, "127.0.0.1:8080", "",
			[]string{"http://127.0.0.1:8080/"}, []string{"localhost:9000"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr, err := net.ResolveTCPAddr("tcp", tc.listen)
			if err != nil {
				t.Fatal(err)
			}
			tc.o.Hostname = func() (string, error) { return hostname, nil }
			acc, err := DecideAccess(addr, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			token := tc.token
			if token == "random" {
				if !random.MatchString(acc.Token) {
					t.Fatalf("token %q, want a random one", acc.Token)
				}
				token = acc.Token
			}
			if acc.Token != token || acc.Loopback != tc.loopback {
				t.Errorf("token %q loopback %v, want %q %v", acc.Token, acc.Loopback, token, tc.loopback)
			}
			var urls []string
			for _, u := range tc.urls {
				urls = append(urls, strings.ReplaceAll(u, "TOKEN", token))
			}
			if d := cmp.Diff(urls, acc.URLs); d != "" {
				t.Errorf("addresses (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.allow, acc.AllowHosts); d != "" {
				t.Errorf("allowed hosts (-want +got):\n%s", d)
			}
		})
	}
	for _, bad := range []string{"short", "has space in it 0123", "semi;colon0123456789"} {
		t.Run("bad token "+bad, func(t *testing.T) {
			_, err := DecideAccess(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, AccessOptions{Addr: "127.0.0.1:8080", Token: bad})
			if err == nil || !strings.Contains(err.Error(), "access token") {
				t.Errorf("error %v, want one about the access token", err)
			}
		})
	}
}
