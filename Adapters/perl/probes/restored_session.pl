#!/usr/bin/perl
# The tokens sign-in: the POD's token_string ("Supply tokens generated in a previous request so
# that you don't have to ask the service provider for new ones", OAuth2.pm:64-66, 307-327) gives
# the library a saved session. A restored token that is still valid is sent as it is; one that
# has expired is refreshed first with its refresh token (AccessToken.pm:79-85), and the new one
# handed to save_tokens.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my $server = ProbeServer->start(sub {
    my ($request) = @_;
    return json_response(200, { access_token => 'at-2', token_type => 'Bearer', expires_in => 3600, refresh_token => 'rt-2' })
        if $request->uri->path eq '/token';
    return json_response(200, { ok => 1 });
});

my @saved;
my %sent;
for my $case ('valid', 'expired') {
    my $oauth2 = oauth2($server->url, token_string => saved_token($case eq 'valid' ? (age => 0) : (age => 3700)),
        save_tokens => sub { push @saved, $_[0] });
    my $response = $oauth2->get($server->url . '/resource');
    $sent{$case} = $response->request->header('Authorization');
    print "a restored $case token: the call went out with '$sent{$case}'\n";
}
print 'save_tokens was handed ', scalar(@saved), " new token string(s)\n";
$server->stop;
verdict($sent{valid} eq 'Bearer at-1' && $sent{expired} eq 'Bearer at-2' && @saved == 1,
    'a restored token_string is used as it is while valid, and refreshed first once expired (the new token handed to save_tokens)',
    "the calls went out with '$sent{valid}' and '$sent{expired}'");
