package dev.weft.tcp;

/** An operation the stream model refuses, as the errno the program gets; the model's state is unchanged. */
public final class TcpException extends Exception {

    private final TcpErrno errno;

    public TcpException(TcpErrno errno, String why) {
        super(errno + ": " + why, null, false, false);
        this.errno = errno;
    }

    public TcpErrno errno() {
        return errno;
    }
}
