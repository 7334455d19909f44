#!/usr/bin/perl
# Claim: a token response cut off in its JSON fails the sign-in with a message that quotes the
# whole body, access token included (ServiceProvider.pm:244-252 puts $content in the error), and
# the application's next call then dies with Perl's "Can't call method "request" on an
# undefined value" (OAuth2.pm:107), not with an error of the library.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 verdict);

my $server = ProbeServer->start(sub {
    my ($request) = @_;
    return json_response(200, '{"access_token":"at-secret-1","token_type":"Bearer","expi');
});
my $oauth2 = oauth2($server->url);
eval { $oauth2->request_tokens(code => 'code-1') };
(my $sign_in = $@) =~ s/\n+/ | /g;
print "the cut-off token response: the sign-in died with: $sign_in\n";
eval { $oauth2->get($server->url . '/resource') };
(my $call = $@) =~ s/\n+/ | /g;
print "the next \$oauth2->get died with: $call\n";
$server->stop;
verdict($sign_in =~ /at-secret-1/ && $call =~ /^Can't call method "request" on an undefined value/,
    'the sign-in error quotes the access token of the cut-off response, and the next call dies with Perl\'s "Can\'t call method"',
    'the message kept the token out, or the next call failed cleanly');
