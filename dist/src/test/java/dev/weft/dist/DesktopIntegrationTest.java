package dev.weft.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The Linux desktop entry and MIME types the .deb installs: the entry validates (desktop-file-validate, when
 * installed; CI installs desktop-file-utils), the MIME XML is the shared-mime-info format with globs for .weftlog
 * and .weftlog.gz, and the entry opens exactly those types with the workbench.
 */
class DesktopIntegrationTest {

    private static final Path LINUX = Repo.ROOT.resolve("jpackage/linux");

    @Test
    void desktopEntryValidates() throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/desktop-file-validate"))) {
            return;
        }
        Repo.Result r = Repo.bash("desktop-file-validate jpackage/linux/weft-workbench.desktop", Map.of(), LINUX);
        assertEquals(0, r.code(), r.output());
        assertEquals("", r.output());
    }

    @Test
    void mimeTypesAndTheAssociationAgree() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(LINUX.resolve("weft-workbench-mime.xml").toFile());
        Element root = doc.getDocumentElement();
        assertEquals("http://www.freedesktop.org/standards/shared-mime-info", root.getNamespaceURI());
        assertEquals("mime-info", root.getLocalName());
        Set<String> types = new TreeSet<>();
        List<String> globs = new ArrayList<>();
        NodeList mimeTypes = root.getElementsByTagNameNS(root.getNamespaceURI(), "mime-type");
        for (int i = 0; i < mimeTypes.getLength(); i++) {
            Element t = (Element) mimeTypes.item(i);
            types.add(t.getAttribute("type"));
            assertTrue(t.getElementsByTagNameNS(root.getNamespaceURI(), "comment").getLength() > 0, "a comment");
            NodeList g = t.getElementsByTagNameNS(root.getNamespaceURI(), "glob");
            for (int j = 0; j < g.getLength(); j++) {
                globs.add(t.getAttribute("type") + " " + ((Element) g.item(j)).getAttribute("pattern"));
            }
        }
        assertEquals(List.of("application/x-weftlog *.weftlog", "application/x-weftlog+gzip *.weftlog.gz"), globs);

        List<String> entry = Files.readAllLines(LINUX.resolve("weft-workbench.desktop"), StandardCharsets.UTF_8);
        Set<String> opened = new TreeSet<>();
        String exec = null;
        for (String l : entry) {
            if (l.startsWith("MimeType=")) {
                for (String t : l.substring(9).split(";")) {
                    if (!t.isEmpty()) {
                        opened.add(t);
                    }
                }
            }
            if (l.startsWith("Exec=")) {
                exec = l.substring(5);
            }
        }
        assertEquals(types, opened, "the desktop entry opens every type the package defines");
        assertEquals("/opt/weft-workbench/bin/weft-workbench %f", exec, "the association points at the workbench");
    }
}
