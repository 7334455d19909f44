package conformance;

import com.google.api.client.auth.oauth2.Credential;
import com.google.api.client.auth.oauth2.CredentialRefreshListener;
import com.google.api.client.auth.oauth2.DataStoreCredentialRefreshListener;
import com.google.api.client.auth.oauth2.StoredCredential;
import com.google.api.client.util.store.DataStore;
import com.google.api.client.util.store.FileDataStoreFactory;
import java.io.File;
import java.io.IOException;

/**
 * Persistence as the library's documentation sets it up: a {@link FileDataStoreFactory} on the
 * scenario's storage_dir holding a {@link StoredCredential} per user, written by the library's
 * {@link DataStoreCredentialRefreshListener} after every refresh (and after a refused one), and by
 * the application after a sign-in, as AuthorizationCodeFlow.createAndStoreCredential does.
 */
final class CredentialStore {
    /** The application's one user. */
    static final String USER_ID = "conformance-user";

    private final DataStore<StoredCredential> dataStore;

    /** Opens the store in {@code directory}, reading what an earlier instance wrote there. */
    CredentialStore(String directory) throws IOException {
        this.dataStore = StoredCredential.getDefaultDataStore(new FileDataStoreFactory(new File(directory)));
    }

    /** The library's listener that persists each refresh's outcome; give it to Credential.Builder. */
    CredentialRefreshListener refreshListener() {
        return new DataStoreCredentialRefreshListener(USER_ID, dataStore);
    }

    /** What the application stores after a sign-in. */
    void save(Credential credential) throws IOException {
        dataStore.set(USER_ID, new StoredCredential(credential));
    }

    /** What was stored last, or null: the state AuthorizationCodeFlow.loadCredential rebuilds from. */
    StoredCredential load() throws IOException {
        return dataStore.get(USER_ID);
    }
}
