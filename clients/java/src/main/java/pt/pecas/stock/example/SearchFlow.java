package pt.pecas.stock.example;

import java.util.List;
import java.util.stream.Collectors;
import pt.pecas.stock.client.ApiClient;
import pt.pecas.stock.client.ApiException;
import pt.pecas.stock.client.ApiResponse;
import pt.pecas.stock.client.api.ApiKeysApi;
import pt.pecas.stock.client.api.AuthenticationApi;
import pt.pecas.stock.client.api.CreditsApi;
import pt.pecas.stock.client.api.SearchApi;
import pt.pecas.stock.client.model.BadRequestError;
import pt.pecas.stock.client.model.CreatedApiKeyResult;
import pt.pecas.stock.client.model.HistoryResult;
import pt.pecas.stock.client.model.LedgerKind;
import pt.pecas.stock.client.model.LoginRequest;
import pt.pecas.stock.client.model.NewAccount;
import pt.pecas.stock.client.model.NewApiKey;
import pt.pecas.stock.client.model.SearchRequest;
import pt.pecas.stock.client.model.SearchResult;
import pt.pecas.stock.client.model.SearchStatsResult;
import pt.pecas.stock.client.model.SessionResult;

/**
 * An integration through the client openapi-generator makes of GET /openapi.json (docs/api.md,
 * "Generated clients"): register, log in, create an API key, search, fetch the next page free with
 * the search token, the statistics, the balance and the history, and an error read from its
 * envelope. Run with {@code mvn -q compile exec:java -Dpss.base.url=http://localhost:3000}.
 *
 * <p>It prints one line per step and fails (an exception, a non-zero exit) at the first answer that
 * is not what the document promises.
 */
public final class SearchFlow {
  private SearchFlow() {}

  public static void main(String[] args) throws Exception {
    String baseUrl = System.getProperty("pss.base.url", System.getenv().getOrDefault("PSS_BASE_URL", "http://localhost:3000"));
    String make = System.getenv().getOrDefault("PSS_VEHICLE_MAKE", "Volkswagen");

    ApiClient anonymous = new ApiClient();
    anonymous.updateBaseUri(baseUrl);
    String email = "integracao-java-" + System.currentTimeMillis() + "@example.com";
    String password = "uma-palavra-passe-longa";

    // An account (50 free credits), a session, and an API key for the integration.
    AuthenticationApi authentication = new AuthenticationApi(anonymous);
    authentication.registerAccount(new NewAccount().email(email).password(password).name("ERP"));
    SessionResult session = authentication.login(new LoginRequest().email(email).password(password));
    ApiClient asOwner = new ApiClient();
    asOwner.updateBaseUri(baseUrl);
    asOwner.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + session.getAccessToken()));
    CreatedApiKeyResult created =
        new ApiKeysApi(asOwner).createApiKey(new NewApiKey().name("integração").rateLimitPerMinute(30));
    ApiClient asIntegration = new ApiClient();
    asIntegration.updateBaseUri(baseUrl);
    asIntegration.setRequestInterceptor(request -> request.header("X-API-Key", created.getApiKey().getKey()));

    // The first page costs 1 credit and brings a token; the next page with it costs nothing.
    SearchApi search = new SearchApi(asIntegration);
    ApiResponse<SearchResult> first =
        search.searchStockWithHttpInfo(new SearchRequest().vehicleMake(make).perPage(2), null);
    SearchResult page1 = first.getData();
    check(page1.getCreditsSpent() == 1, "the first page costs 1 credit");
    check(page1.getSearchToken() != null, "a search with results brings a search_token");
    System.out.println("first: credits_spent=" + page1.getCreditsSpent() + " token_status="
        + tokenStatus(first) + " total=" + page1.getTotal() + " items=" + page1.getResults().stream()
            .map(item -> item.getReferenciaOem() + " " + item.getCondicao().getValue() + " " + item.getPreco())
            .collect(Collectors.joining(", ")));

    ApiResponse<SearchResult> second = search.searchStockWithHttpInfo(
        new SearchRequest().vehicleMake(make).perPage(2).page(2).searchToken(page1.getSearchToken()), null);
    check(second.getData().getCreditsSpent() == 0, "the next page with the token is free");
    check("valid".equals(tokenStatus(second)), "the token is valid");
    System.out.println("second: credits_spent=" + second.getData().getCreditsSpent() + " token_status="
        + tokenStatus(second) + " page=" + second.getData().getPage());

    SearchStatsResult stats = search.getSearchStats(new SearchRequest().vehicleMake(make), null);
    System.out.println("stats: credits_spent=" + stats.getCreditsSpent() + " median="
        + stats.getStats().getPriceMedian() + " novo=" + (stats.getStats().getByCondition().getNovo() == null
            ? 0 : stats.getStats().getByCondition().getNovo().getCount()));

    CreditsApi credits = new CreditsApi(asOwner);
    int balance = credits.getCreditBalance().getCredits();
    check(balance == 48, "two credits spent of 50, got " + balance);
    System.out.println("balance: " + balance);
    HistoryResult history = credits.listCreditHistory(null, null, LedgerKind.SEARCH, 1, 5);
    System.out.println("history: " + history.getResults().stream()
        .map(entry -> entry.getKind().getValue() + " " + entry.getCredits() + " "
            + (entry.getSearch() == null ? "-" : entry.getSearch().getTokenStatus().getValue()))
        .collect(Collectors.joining(", ")));

    // An error: its envelope, typed by status; a validation error lists each field.
    try {
      search.searchStock(new SearchRequest().vehicleMake(make).perPage(1000), null);
      throw new IllegalStateException("per_page 1000 is refused");
    } catch (ApiException refused) {
      check(refused.getCode() == 400, "a 400, got " + refused.getCode());
      BadRequestError error = asIntegration.getObjectMapper().readValue(refused.getResponseBody(), BadRequestError.class);
      System.out.println("error: " + error.getCode().getValue() + " " + error.getCampos().stream()
          .map(field -> field.getCampo() + ": " + field.getMotivo().getValue())
          .collect(Collectors.joining(", ")));
    }
    System.out.println("search flow: ok");
  }

  private static String tokenStatus(ApiResponse<?> response) {
    List<String> values = response.getHeaders().get("x-search-token-status");
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static void check(boolean holds, String what) {
    if (!holds) throw new IllegalStateException(what);
  }
}
