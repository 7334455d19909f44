#!/usr/bin/perl
# Claim: when the sign-in fails (a §5.2 error, an error body with 200, a token_type it does not
# know), the application's next call, $oauth2->get, does not fail with the library's own error:
# it dies with Perl's "Can't call method "request" on an undefined value" (OAuth2.pm:107 calls
# $self->access_token->request with no access token).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 verdict);

my @token_answers = (
    json_response(400, { error => 'invalid_grant', error_description => 'refused' }),
    json_response(200, { error => 'invalid_grant' }),
    json_response(200, { access_token => 'at-1', token_type => 'mac', expires_in => 3600 }),
);
my $server = ProbeServer->start(sub {
    my ($request, $number) = @_;
    return $request->uri->path eq '/token' ? shift(@token_answers) : json_response(200, { ok => 1 });
});

my $crashes = 0;
for my $case ('400 invalid_grant', '200 with an error body', 'token_type mac') {
    my $oauth2 = oauth2($server->url);
    eval { $oauth2->request_tokens(code => 'code-1') };
    (my $sign_in = $@) =~ s/\n+/ | /g;
    print "sign-in answered $case: the library died with: $sign_in\n";
    eval { $oauth2->get($server->url . '/resource') };
    (my $call = $@) =~ s/\n+/ | /g;
    print "the next \$oauth2->get died with: $call\n";
    $crashes++ if $call =~ /^Can't call method "request" on an undefined value at \S+LWP\/Authen\/OAuth2\.pm line 107/;
}
$server->stop;
verdict($crashes == 3,
    'after each failed sign-in, $oauth2->get dies with Perl\'s "Can\'t call method "request" on an undefined value" (OAuth2.pm line 107), not with an error of the library',
    "only $crashes of 3 calls died that way");
