package server

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
)

// AccessOptions are the access settings a server is started with.
type AccessOptions struct {
	// Addr is the address to listen on as the user gave it; a host name in
	// it is a name the server answers to.
	Addr string
	// Token is the access token chosen by the user (must pass ValidToken);
	// empty: none, and a random one off loopback or with RequireToken.
	Token string
	// RequireToken asks for a token on a loopback address too.
	RequireToken bool
	// AllowHosts are extra names to answer to (Options.AllowHosts).
	AllowHosts []string
	// Hostname returns this computer's name; nil means os.Hostname.
	Hostname func() (string, error)
}

// Access is how a server listening on an address is reached.
type Access struct {
	// Token is the access token for Options.Token; empty: none.
	Token string
	// AllowHosts are the names to answer to, for Options.AllowHosts.
	AllowHosts []string
	// URLs are the addresses to open, with ?token= when one is needed; the
	// last one is numeric.
	URLs []string
	// Loopback reports that the server listens on a loopback address only.
	Loopback bool
}

// DecideAccess decides, for a server listening on listen, whether it needs
// a token (off loopback, when one is given, or with RequireToken), the
// token, the names it answers to (a host name in o.Addr and, when it
// listens on every address, this computer's name) and the addresses to
// open.
func DecideAccess(listen net.Addr, o AccessOptions) (Access, error) {
	ap, err := netip.ParseAddrPort(listen.String())
	if err != nil {
		return Access{}, fmt.Errorf("listening address %s: %w", listen, err)
	}
	ip, port := ap.Addr().Unmap(), strconv.Itoa(int(ap.Port()))
	acc := Access{Loopback: ip.IsLoopback(), Token: o.Token}
	if acc.Token != "" {
		if err := ValidToken(acc.Token); err != nil {
			return Access{}, fmt.Errorf("access token: %w", err)
		}
	} else if o.RequireToken || !acc.Loopback {
		acc.Token = NewToken()
	}
	hostname := o.Hostname
	if hostname == nil {
		hostname = os.Hostname
	}
	host, _, _ := net.SplitHostPort(o.Addr)
	var names []string
	switch {
	case host != "" && net.ParseIP(host) == nil:
		names = append(names, host)
	case ip.IsUnspecified():
		if h, err := hostname(); err == nil && h != "" {
			names = append(names, h)
		}
		ip = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	acc.AllowHosts = append(slices.Clone(o.AllowHosts), names...)
	query := ""
	if acc.Token != "" {
		query = "?" + tokenParam + "=" + url.QueryEscape(acc.Token)
	}
	for _, n := range names {
		acc.URLs = append(acc.URLs, "http://"+net.JoinHostPort(n, port)+"/"+query)
	}
	acc.URLs = append(acc.URLs, "http://"+net.JoinHostPort(ip.String(), port)+"/"+query)
	return acc, nil
}
