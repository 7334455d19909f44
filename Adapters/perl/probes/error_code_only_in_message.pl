#!/usr/bin/perl
# Claim: a refresh refused with an RFC 6749 §5.2 error reaches the application only as the text
# of a croak, "OAuth2 error: <code>" (ServiceProvider.pm:254-268 builds the string,
# OAuth2.pm:142 passes it to error(), whose default is croak, OAuth2.pm:283): no object, no field
# holding the code.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my @codes = qw(invalid_request invalid_client invalid_grant unauthorized_client unsupported_grant_type invalid_scope);
my @answers = @codes;
my $server = ProbeServer->start(sub {
    my ($request) = @_;
    my $code = shift @answers;
    return json_response($code eq 'invalid_client' ? 401 : 400, { error => $code, error_description => "scripted $code" });
});

my $text_only = 0;
for my $code (@codes) {
    # An expired token restored from storage: the next call refreshes first.
    my $oauth2 = oauth2($server->url, token_string => saved_token(age => 3700));
    eval { $oauth2->get($server->url . '/resource') };
    my $error = $@;
    (my $shown = "$error") =~ s/\n+/ | /g;
    printf "refresh refused with %s: died with a %s: %s\n", $code, (ref $error ? ref($error) . ' object' : 'plain string'), $shown;
    $text_only++ if not ref $error and $error =~ /^OAuth2 error: \Q$code\E\b/;
}
$server->stop;
verdict($text_only == @codes,
    'each §5.2 code of a refused refresh is surfaced only as words of a croaked string ("OAuth2 error: <code>"), never as a field',
    "only $text_only of " . scalar(@codes) . ' refusals came as such a string');
