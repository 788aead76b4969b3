import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Starts mongo-java-server (in-memory backend) so CI can run the store contract suite over
 * the real MongoDB wire protocol. Usage: java MongoWire [port] (0 or absent: a free port).
 * Prints "READY mongodb://127.0.0.1:PORT" once listening; start.sh waits for that line.
 */
public final class MongoWire {
    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        // The default reports MongoDB 3.6 (wire version 6); the Node driver 7 refuses anything
        // below wire version 8, so announce 5.0 explicitly.
        MemoryBackend backend = new MemoryBackend();
        backend.version(ServerVersion.MONGO_5_0);
        MongoServer server = new MongoServer(backend);
        server.bind("127.0.0.1", port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "mongo-wire-shutdown"));
        System.out.println("READY mongodb://127.0.0.1:" + server.getLocalAddress().getPort());
        System.out.flush();
        try {
            Thread.currentThread().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
