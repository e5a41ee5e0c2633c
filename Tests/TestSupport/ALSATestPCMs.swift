/// ALSA configuration text for the PCMs tests record from (TESTING.md): a `type file` capture
/// PCM that returns the raw bytes of the file given as its argument (`NAME:FILE=/path`).
public enum ALSATestPCMs {
    /// The definition of a capture PCM `name` reading the infile given as its `FILE` argument;
    /// not paced in real time.
    public static func fileCapture(named name: String) -> String {
        """
        pcm.\(name) {
            @args [ FILE ]
            @args.FILE { type string }
            type file
            slave.pcm "null"
            file "/dev/null"
            infile $FILE
            format "raw"
        }

        """
    }
}
