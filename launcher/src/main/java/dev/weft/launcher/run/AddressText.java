package dev.weft.launcher.run;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A listening address as the user would write it: {@code 0.0.0.0:7000} for an IPv4 wildcard (a dual-stack socket
 * bound to it reports {@code ::}, which Java spells {@code 0:0:0:0:0:0:0:0}), {@code [::1]:7000} for IPv6.
 */
final class AddressText {
    private AddressText() {
    }

    /** {@code bound}'s port on the host the user asked for ({@code asked} may be null: then the bound one). */
    static String of(InetSocketAddress asked, InetSocketAddress bound) {
        InetAddress host = asked != null && asked.getAddress() != null ? asked.getAddress() : bound.getAddress();
        return host(host) + ":" + bound.getPort();
    }

    static String host(InetAddress a) {
        if (a instanceof Inet4Address) {
            return a.getHostAddress();
        }
        if (a instanceof Inet6Address six) {
            if (six.isAnyLocalAddress()) {
                return "[::]";
            }
            if (six.isLoopbackAddress()) {
                return "[::1]";
            }
            String text = six.getHostAddress();
            int zone = text.indexOf('%');
            return "[" + (zone < 0 ? text : text.substring(0, zone)).replaceFirst("(^|:)(0(:|$)){2,}", "::") + "]";
        }
        return String.valueOf(a);
    }
}
